import { startFaultStack } from './fault-stack';
async function main() {
  let t = Date.now();
  const s = await startFaultStack();
  console.log('infra', Date.now() - t); t = Date.now();
  const w = await s.startWorker();
  console.log('worker', Date.now() - t, w.rssKb()); t = Date.now();
  const a = await s.startApi();
  console.log('api', Date.now() - t, a.rssKb()); t = Date.now();
  const u = await s.createUser({ credits: 100 });
  const r = await fetch(`${s.apiUrl}/api/v1/kyt/job`, { method: 'POST', headers: { 'x-api-key': u.key, 'content-type': 'application/json' }, body: JSON.stringify({ chain: 'ethereum', address: '0x00000000000000000000000000000000000c0ffe' }) });
  const b: any = await r.json(); console.log(r.status, b);
  for (;;) { const p: any = await (await fetch(`${s.apiUrl}/api/v1/kyt/job/${b.data.request_id}`, { headers: { 'x-api-key': u.key } })).json(); if (p.data.status !== 'queued') { console.log(Date.now() - t, p.data.status, p.data.credits_charged, p.data.error); break; } await new Promise((r) => setTimeout(r, 100)); }
  await s.stop();
}
main().catch((e) => { console.error(e); process.exit(1); });
