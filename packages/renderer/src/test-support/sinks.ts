/** UDP and TCP listeners that must see nothing: every datagram and connection is recorded. */
import dgram from 'node:dgram';
import net from 'node:net';

export interface Sinks {
  udp: Array<{ host: string; port: number }>;
  tcp: { host: string; port: number };
  /** What reached a sink, e.g. 'udp 127.0.0.1:5000 from 127.0.0.1:4000 (20 bytes)'. */
  seen: string[];
  close(): Promise<void>;
}

export async function startSinks(udpHosts: string[], tcpHost: string): Promise<Sinks> {
  const seen: string[] = [];
  const sockets: dgram.Socket[] = [];
  const udp: Array<{ host: string; port: number }> = [];
  for (const host of udpHosts) {
    const s = dgram.createSocket('udp4');
    s.on('message', (m, r) =>
      seen.push(`udp ${host}:${s.address().port} from ${r.address}:${r.port} (${m.length} bytes)`),
    );
    await new Promise<void>((resolve) => s.bind(0, host, resolve));
    sockets.push(s);
    udp.push({ host, port: s.address().port });
  }
  const conns = new Set<net.Socket>();
  const server = net.createServer((c) => {
    seen.push(`tcp ${tcpHost} from ${c.remoteAddress}:${c.remotePort}`);
    conns.add(c);
    c.on('close', () => conns.delete(c));
    c.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, tcpHost, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    udp,
    tcp: { host: tcpHost, port },
    seen,
    close: async () => {
      for (const s of sockets) s.close();
      for (const c of conns) c.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
