import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Run } from './stats';

/**
 * One closed-loop round of GETs the client process runs: `total` requests over `urls` in turn, `concurrency` at once.
 */
export interface HttpRound {
  urls: string[];
  headers: Record<string, string>;
  /**
   * A POST's JSON body (GET when absent): each request sends it with every `$UUID` replaced by a fresh random UUID and
   * every `$HEX32` by 32 fresh hex digits, so each post is a new record.
   */
  body?: string;
  total: number;
  concurrency: number;
  /** Every answer must have this status and contain this text, or the round fails. */
  expectStatus: number;
  expectText: string;
}

export interface HttpClientProcess {
  run(round: HttpRound): Promise<Run>;
  close(): Promise<void>;
}

/**
 * An HTTP client in a process of its own (bench/lib/http-client-child.ts): the client's CPU is then not charged to the
 * api (or P3's bare route), which shares one event loop with the bench process. Keep-alive sockets, as a real poller
 * keeps.
 */
export async function startHttpClientProcess(): Promise<HttpClientProcess> {
  const child: ChildProcess = fork(path.join(__dirname, 'http-client-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the HTTP client process exited (${code})`)));
  });
  return {
    run: (round) =>
      new Promise<Run>((resolve, reject) => {
        child.once('message', (answer: { run?: Run; error?: string }) =>
          answer.run ? resolve(answer.run) : reject(new Error(answer.error)),
        );
        child.send(round);
      }),
    close: async () => {
      child.kill();
    },
  };
}
