import { useState } from 'preact/hooks';
import { useSession } from '../context';
import { ErrorNotice } from './error-notice';

/**
 * A button that downloads one of the API's files (a batch's CSV results, a case file). The file is read with the
 * dashboard's credential (a header a plain link cannot send) and handed to the browser as a file through a blob: URL,
 * released once the download has started.
 */
export function DownloadFile({ path, fileName, label }: { path: string; fileName: string; label: string }) {
  const { api } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await api.download(path);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" class="secondary" disabled={busy} onClick={download}>
        {busy ? 'Preparing the file…' : label}
      </button>
      <ErrorNotice error={error} />
    </>
  );
}
