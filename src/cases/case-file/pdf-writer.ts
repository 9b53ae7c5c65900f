/** Characters the standard PDF fonts (WinAnsiEncoding) hold beyond Latin-1. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** `text` with what the standard fonts cannot show replaced by `?` (and control characters but newline dropped). */
export function pdfText(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    if (ch === '\n' || (c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (ch === '\t') out += ' ';
    else if (c >= 0x20) out += '?';
  }
  return out;
}

/**
 * `text` cut into lines of exactly `width` characters (the last shorter), each source line on its own: how long
 * values (hashes, JWS, JSON) are printed, so that joining a value's lines without anything between them gives it back.
 */
export function wrapFixed(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length === 0) lines.push('');
    for (let i = 0; i < line.length; i += width) lines.push(line.slice(i, i + width));
  }
  return lines;
}

/** Courier's every glyph is 0.6 em wide. */
const COURIER_EM = 0.6;
const MUTED = '#555555';
const RULE = '#bbbbbb';

export interface Column {
  title: string;
  width: number;
  /** Courier, cut at the column's width by wrapFixed (values that must be read back exactly). */
  mono?: boolean;
}

type Font = 'Helvetica' | 'Helvetica-Bold' | 'Courier' | 'Courier-Bold';

export interface TableOptions {
  size?: number;
  /** false: no header row (a key-value list). */
  header?: boolean;
  /** The first column bold (labels). */
  boldFirst?: boolean;
}

/**
 * A cursor over a pdfkit document: headings, paragraphs, key-value lists, plain text tables whose header repeats on
 * each page, and monospaced blocks cut deterministically. It starts a new page before anything that would not fit.
 */
export class PdfWriter {
  private cursor: number;
  private layout: 'portrait' | 'landscape' = 'portrait';

  constructor(
    readonly doc: PDFKit.PDFDocument,
    private readonly page: { size: string; margins: { top: number; bottom: number; left: number; right: number } },
  ) {
    this.cursor = doc.page.margins.top;
  }

  get left(): number {
    return this.doc.page.margins.left;
  }

  /** The width between the margins of the current page. */
  get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  get y(): number {
    return this.cursor;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Room left on the page. */
  get room(): number {
    return this.bottom - this.cursor;
  }

  newPage(): void {
    this.doc.addPage({ ...this.page, layout: this.layout });
    this.cursor = this.doc.page.margins.top;
  }

  /** Starts a page of that orientation; the pages after it keep it. */
  turn(layout: 'portrait' | 'landscape'): void {
    this.layout = layout;
    this.newPage();
  }

  /** Starts a new page unless `height` fits on this one. */
  ensure(height: number): void {
    if (this.cursor + height > this.bottom) this.newPage();
  }

  space(points: number): void {
    this.cursor = Math.min(this.cursor + points, this.bottom);
  }

  /** Moves the cursor below something drawn directly on the document (a picture). */
  advance(points: number): void {
    this.cursor += points;
  }

  private use(font: Font, size: number, color = 'black') {
    return this.doc.font(font).fontSize(size).fillColor(color);
  }

  heading(text: string, level: 1 | 2 | 3): void {
    const size = level === 1 ? 15 : level === 2 ? 12 : 9.5;
    this.ensure(size * 3);
    if (level < 3) this.space(level === 1 ? 4 : 8);
    this.use('Helvetica-Bold', size).text(pdfText(text), this.left, this.cursor, { width: this.width });
    this.cursor = this.doc.y + (level === 1 ? 6 : 4);
    if (level === 2) {
      this.doc
        .moveTo(this.left, this.cursor - 2)
        .lineTo(this.left + this.width, this.cursor - 2)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      this.cursor += 2;
    }
  }

  paragraph(text: string, options: { size?: number; muted?: boolean; bold?: boolean; indent?: number } = {}): void {
    const size = options.size ?? 8.5;
    const indent = options.indent ?? 0;
    const doc = this.use(options.bold ? 'Helvetica-Bold' : 'Helvetica', size, options.muted ? MUTED : 'black');
    const clean = pdfText(text);
    const height = doc.heightOfString(clean, { width: this.width - indent });
    this.ensure(Math.min(height, size * 4));
    doc.text(clean, this.left + indent, this.cursor, { width: this.width - indent });
    this.cursor = this.doc.y + size * 0.4;
  }

  /**
   * Lines of Courier, each value cut at the line's width by wrapFixed; kept on one page when `together` and it fits.
   */
  mono(text: string, options: { size?: number; indent?: number; together?: boolean; muted?: boolean } = {}): void {
    const size = options.size ?? 7;
    const indent = options.indent ?? 0;
    const perLine = Math.floor((this.width - indent - 1) / (size * COURIER_EM));
    const lines = wrapFixed(pdfText(text), perLine);
    const lineHeight = size * 1.2;
    const total = lines.length * lineHeight;
    if (options.together && total <= this.doc.page.height / 2) this.ensure(total);
    this.use('Courier', size, options.muted ? MUTED : 'black');
    for (const line of lines) {
      this.ensure(lineHeight);
      this.doc.text(line, this.left + indent, this.cursor, { lineBreak: false });
      this.cursor += lineHeight;
    }
    this.cursor += size * 0.3;
  }

  /** Label / value pairs, the labels in a column of their own. */
  keyValues(rows: [string, string][], labelWidth = 120): void {
    this.table(
      [
        { title: '', width: labelWidth },
        { title: '', width: this.width - labelWidth },
      ],
      rows.map(([k, v]) => [k, v]),
      { header: false, boldFirst: true },
    );
  }

  /** A plain text table of `rows` (see startTable). */
  table(columns: Column[], rows: string[][], options: TableOptions = {}): void {
    const table = this.startTable(columns, options);
    for (const row of rows) table.row(row);
    table.end();
  }

  /**
   * A plain text table, row by row: every cell wrapped in its column (mono columns cut by wrapFixed), each row kept
   * on one page, the header row repeated at the top of every page the table runs onto.
   */
  startTable(columns: Column[], options: TableOptions = {}): { row(values: string[]): void; end(): void } {
    const size = options.size ?? 7.5;
    const pad = 2;
    const cellText = (col: Column, value: string) =>
      col.mono
        ? wrapFixed(pdfText(value), Math.max(1, Math.floor((col.width - 2 * pad - 1) / (size * COURIER_EM)))).join('\n')
        : pdfText(value);
    const fontOf = (col: Column, i: number, header: boolean): Font =>
      header || (options.boldFirst && i === 0) ? 'Helvetica-Bold' : col.mono ? 'Courier' : 'Helvetica';
    const heightOf = (cells: string[], header: boolean) =>
      Math.max(
        size,
        ...columns.map((col, i) =>
          this.use(fontOf(col, i, header), size).heightOfString(cells[i] ?? '', { width: col.width - 2 * pad }),
        ),
      ) +
      2 * pad;
    const draw = (cells: string[], header: boolean) => {
      const height = heightOf(cells, header);
      if (header) this.doc.rect(this.left, this.cursor, this.width, height).fillColor('#eeeeee').fill();
      let x = this.left;
      for (const [i, col] of columns.entries()) {
        this.use(fontOf(col, i, header), size).text(cells[i] ?? '', x + pad, this.cursor + pad, {
          width: col.width - 2 * pad,
        });
        x += col.width;
      }
      this.cursor += height;
      this.doc
        .moveTo(this.left, this.cursor)
        .lineTo(this.left + this.width, this.cursor)
        .lineWidth(0.3)
        .strokeColor(RULE)
        .stroke();
    };
    const header = columns.map((c) => pdfText(c.title));
    const withHeader = options.header !== false;
    if (withHeader) {
      this.ensure(heightOf(header, true) + size * 3);
      draw(header, true);
    }
    return {
      row: (values) => {
        const cells = columns.map((col, i) => cellText(col, values[i] ?? ''));
        const height = heightOf(cells, false);
        if (this.cursor + height > this.bottom) {
          this.newPage();
          if (withHeader) draw(header, true);
        }
        draw(cells, false);
      },
      end: () => {
        this.cursor += 4;
      },
    };
  }

  /** Page numbers and the case id in the bottom margin of every page (needs bufferPages). */
  footer(text: string): void {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const bottom = this.doc.page.margins.bottom;
      this.doc.page.margins.bottom = 0;
      const line = pdfText(`${text}   page ${i + 1} of ${range.count}`);
      const doc = this.use('Helvetica', 7, MUTED);
      const x = this.left + Math.max(0, (this.width - doc.widthOfString(line)) / 2);
      doc.text(line, x, this.doc.page.height - bottom / 2 - 4, { lineBreak: false });
      this.doc.page.margins.bottom = bottom;
    }
  }
}
