import express from 'express';
import request from 'supertest';
import { ConfigError, loadConfig } from '../../src/app/config';

/** The address a request from this machine (127.0.0.1) claiming to forward 203.0.113.7 is seen as. */
async function seenAs(trustProxy: unknown): Promise<string | undefined> {
  const app = express();
  // Express compiles the setting here: a value it cannot read throws, which is how the api failed to start.
  app.set('trust proxy', trustProxy);
  app.get('/ip', (req, res) => {
    res.json({ ip: req.ip });
  });
  const res = await request(app).get('/ip').set('X-Forwarded-For', '203.0.113.7');
  return res.body.ip;
}

const CLIENT = '203.0.113.7';
const LOCAL = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

describe('TRUST_PROXY', () => {
  test.each([
    ['true', true, CLIENT],
    ['TRUE', true, CLIENT],
    ['false', false, LOCAL],
    ['1', 1, CLIENT],
    ['0', 0, LOCAL],
    ['loopback', ['loopback'], CLIENT],
    ['127.0.0.1', ['127.0.0.1'], CLIENT],
    ['10.0.0.0/8, 127.0.0.0/8, ::1', ['10.0.0.0/8', '127.0.0.0/8', '::1'], CLIENT],
    ['127.0.0.0/255.0.0.0,::1/128', ['127.0.0.0/255.0.0.0', '::1/128'], CLIENT],
    ['10.0.0.0/8', ['10.0.0.0/8'], LOCAL],
  ])('%s is read as %p, and the api starts with it and sees the sender as configured', async (env, parsed, ip) => {
    const config = loadConfig({ TRUST_PROXY: env });
    expect(config.TRUST_PROXY).toEqual(parsed);
    const seen = await seenAs(config.TRUST_PROXY);
    if (typeof ip === 'string') expect(seen).toBe(ip);
    else expect(seen).toMatch(ip);
  });

  test('unset or empty trusts no proxy', async () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toBe(false);
    expect(await seenAs(loadConfig({}).TRUST_PROXY)).toMatch(LOCAL);
  });

  test.each(['yes', '101', '-1', '10.0.0.0/33', '::1/129', '10.0.0.0/255.0.255.0', 'proxy.example.com', '10.0.0.1,'])(
    '%s is refused at start with what is expected, not by Express later',
    (env) => {
      expect(() => loadConfig({ TRUST_PROXY: env })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: env })).toThrow(/TRUST_PROXY: true, false, a hop count/);
    },
  );
});
