import { findSecrets } from '../helpers/secret-finder';

describe('findSecrets (the whole-run log grep)', () => {
  const key = 'cs_live_Q2hhaW5zY3JlZW4tdGVzdC1rZXktbm90LXJlYWwtMDAwMDAw';
  const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyXzEifQ.c2lnbmF0dXJl';
  const odd = 'pass phrase with spaces!';

  test('finds a secret wherever it sits in a line, once per line, with its line number', () => {
    const lines = [
      '{"msg":"clean line","httpRequestId":"abc-123"}',
      `{"msg":"oops ${key}","again":"${key}"}`,
      `{"url":"/x?token=${jwt}&y=1"}`,
      `{"detail":"xx${odd}yy"}`,
    ];
    expect(findSecrets(lines, [key, jwt, odd])).toEqual([
      { lineNumber: 2, secret: key },
      { lineNumber: 3, secret: jwt },
      { lineNumber: 4, secret: odd },
    ]);
  });

  test('does not report prefixes, other keys or the redacted forms', () => {
    const lines = [
      `{"prefix":"${key.slice(0, 14)}"}`,
      '{"k":"cs_live_[REDACTED]"}',
      `{"other":"${key.slice(0, -1)}X"}`,
    ];
    expect(findSecrets(lines, [key, jwt])).toEqual([]);
  });
});
