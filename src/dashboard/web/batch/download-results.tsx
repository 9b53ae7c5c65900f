import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import { batchPath } from './batch-api';

/**
 * "Download results (CSV)". The file is read with the dashboard's credential (a header a plain link cannot send) and
 * handed to the browser as a file through a blob: URL, released once the download has started.
 */
export function DownloadResults({ batchId }: { batchId: string }) {
  const { api } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await api.download(`${batchPath(batchId)}/results.csv`);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `batch-${batchId}.csv`;
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
        {busy ? 'Preparing the file…' : 'Download results (CSV)'}
      </button>
      <ErrorNotice error={error} />
    </>
  );
}
