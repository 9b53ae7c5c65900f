import type { GraphLayout } from './graph-layout';
import { type PdfWriter, pdfText } from './pdf-writer';

const SUBJECT = '#c1121f';
const LABELLED = '#f4a261';
const OTHER = '#d9d9d9';
const EDGE = '#8a8a8a';
const SUBJECT_EDGE = '#c1121f';

/** `0x4f47bc49…6270c`: enough of an address to find it in the node table. */
export const shortAddress = (address: string): string =>
  address.length > 18 ? `${address.slice(0, 10)}...${address.slice(-6)}` : address;

const columnTitle = (column: number) =>
  column === 0 ? 'screened' : column < 0 ? `in, hop ${-column}` : `out, hop ${column}`;

/** `text` cut (with `...`) to what fits in `width` points in the document's current font. */
function fitText(doc: PDFKit.PDFDocument, text: string, width: number): string {
  let t = pdfText(text);
  if (doc.widthOfString(t) <= width) return t;
  while (t.length > 1 && doc.widthOfString(`${t}...`) > width) t = t.slice(0, -1);
  return `${t}...`;
}

/**
 * Draws a laid-out graph as vector shapes at the writer's cursor (a new page first when it does not fit): a box,
 * a title per column, each transfer as an arrow to its receiver, each node as a dot with its name (`N1`), a short
 * address and its first label; the subject red and larger, labelled nodes orange. A legend follows.
 */
export function drawGraph(writer: PdfWriter, layout: GraphLayout): void {
  const doc = writer.doc;
  writer.ensure(layout.height + 30);
  const ox = writer.left;
  const oy = writer.y;
  const columnWidth = layout.width / Math.max(1, layout.columns.length);
  doc.rect(ox, oy, layout.width, layout.height).lineWidth(0.5).strokeColor('#999999').stroke();

  doc.font('Helvetica-Bold').fontSize(6.5).fillColor('#555555');
  for (const c of layout.columns) {
    const title = columnTitle(c.column);
    doc.text(title, ox + c.left + (c.width - doc.widthOfString(title)) / 2, oy + 5, { lineBreak: false });
  }

  const radius = (subject: boolean) => (subject ? 5.5 : 3.5);
  for (const e of layout.edges) {
    const a = layout.nodes[e.from];
    const b = layout.nodes[e.to];
    if (!a || !b) continue;
    const [x1, y1, x2, y2] = [ox + a.x, oy + a.y, ox + b.x, oy + b.y];
    const length = Math.hypot(x2 - x1, y2 - y1);
    if (length < 1) continue;
    const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
    const start = radius(a.subject) + 1;
    const end = radius(b.subject) + 1.5;
    const [sx, sy, ex, ey] = [x1 + ux * start, y1 + uy * start, x2 - ux * end, y2 - uy * end];
    const color = a.subject || b.subject ? SUBJECT_EDGE : EDGE;
    doc.moveTo(sx, sy).lineTo(ex, ey).lineWidth(0.6).strokeColor(color).stroke();
    const head = 4;
    doc
      .polygon(
        [ex, ey],
        [ex - ux * head - uy * head * 0.5, ey - uy * head + ux * head * 0.5],
        [ex - ux * head + uy * head * 0.5, ey - uy * head - ux * head * 0.5],
      )
      .fillColor(color)
      .fill();
  }

  const textWidth = columnWidth - 20;
  for (const n of layout.nodes) {
    const [x, y] = [ox + n.x, oy + n.y];
    doc
      .circle(x, y, radius(n.subject))
      .lineWidth(n.subject ? 1.2 : 0.5)
      .fillAndStroke(n.subject ? SUBJECT : n.labels.length > 0 ? LABELLED : OTHER, '#333333');
    // Its name, short address and labels: to the left of a source, right of a destination, under a screened
    // party; on a white ground, over the transfers.
    const lines: { text: string; font: string; size: number; color: string }[] = [
      {
        text: `${n.id}${n.subject ? ' subject' : ''}`,
        font: 'Helvetica-Bold',
        size: 6,
        color: n.subject ? SUBJECT : 'black',
      },
      { text: shortAddress(n.address), font: 'Helvetica', size: 5.5, color: 'black' },
      ...(n.labels.length > 0 ? [{ text: n.labels.join(', '), font: 'Helvetica', size: 5.5, color: '#7a4a00' }] : []),
    ];
    const fitted = lines.map((l) => {
      doc.font(l.font).fontSize(l.size);
      const text = fitText(doc, l.text, textWidth);
      return { ...l, text, width: doc.widthOfString(text) };
    });
    const lineHeight = 6.3;
    const top = n.column === 0 ? y + radius(n.subject) + 2 : y - (fitted.length * lineHeight) / 2;
    for (const [i, l] of fitted.entries()) {
      const tx =
        n.column < 0 ? x - radius(n.subject) - 3 - l.width : n.column > 0 ? x + radius(n.subject) + 3 : x - l.width / 2;
      const ty = top + i * lineHeight;
      doc
        .rect(tx - 1, ty - 0.5, l.width + 2, lineHeight)
        .fillOpacity(0.85)
        .fillColor('white')
        .fill();
      doc.fillOpacity(1).font(l.font).fontSize(l.size).fillColor(l.color).text(l.text, tx, ty, { lineBreak: false });
    }
  }
  writer.advance(layout.height + 6);

  // Legend
  const ly = writer.y + 4;
  let lx = ox;
  const item = (color: string, r: number, text: string) => {
    doc
      .circle(lx + r, ly, r)
      .lineWidth(0.5)
      .fillAndStroke(color, '#333333');
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor('black')
      .text(text, lx + 2 * r + 4, ly - 3.5, { lineBreak: false });
    lx += 2 * r + 10 + doc.widthOfString(text);
  };
  item(SUBJECT, 5, 'the subject');
  item(LABELLED, 3.5, 'named by a list or label');
  item(OTHER, 3.5, 'other address');
  doc
    .moveTo(lx, ly)
    .lineTo(lx + 18, ly)
    .lineWidth(0.6)
    .strokeColor(EDGE)
    .stroke();
  doc
    .polygon([lx + 22, ly], [lx + 18, ly - 2], [lx + 18, ly + 2])
    .fillColor(EDGE)
    .fill();
  doc
    .font('Helvetica')
    .fontSize(7)
    .fillColor('black')
    .text('a transfer, pointing at the receiver', lx + 26, ly - 3.5, {
      lineBreak: false,
    });
  writer.advance(16);
}
