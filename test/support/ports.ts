/**
 * Loopback ports for the tests' stand-ins (printers, gateways, a hub that keeps its URL across restarts): a server
 * listening on 127.0.0.1, and a port that was free a moment ago.
 */
import net from 'node:net';

/** Starts `server` on 127.0.0.1 (`port`, or an ephemeral one) and gives the port it listens on; a refusal rejects. */
export async function listenOnLoopback(server: net.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}

/** A port free right now (listened on, then closed): for a server that must be given its port before it starts. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  const port = await listenOnLoopback(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
