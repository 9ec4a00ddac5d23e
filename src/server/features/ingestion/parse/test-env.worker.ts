// A sandbox child for tests (sandbox.test.ts passes it as workerUrl): it speaks the protocol of
// parse.worker.ts and answers every job with the environment it was started with.

if (process.send) {
  const send = process.send.bind(process);
  process.on('message', (msg: { id: number }) => {
    send({ id: msg.id, started: true });
    send({ id: msg.id, ok: true, value: { ...process.env } });
  });
  process.on('disconnect', () => process.exit(0));
  send({ ready: true });
}
