import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * SCRAM-SHA-256 password authentication (RFC 5802/7677, as Postgres speaks it) for the embedded server's port.
 * pglite-socket accepts any connection as the superuser and hands the startup message straight to PGlite; the
 * socket patch runs this exchange first and forwards the startup message only once the password checked out.
 * SCRAM, not cleartext or MD5: the password never crosses the socket, and psql, pg_dump and node-postgres all speak it.
 */

const ITERATIONS = 4096;

type Keys = { storedKey: Buffer; serverKey: Buffer };

export type Credential = { name: string; keys: Keys };

const hmac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest();
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest();

/** One salt per server start; every credential is derived once, so a connection costs two HMACs per credential. */
export const createScramVerifier = (passwords: { name: string; password: string }[]) => {
  const salt = randomBytes(16);
  const credentials: Credential[] = passwords.map(({ name, password }) => {
    const salted = pbkdf2Sync(password.normalize("NFKC"), salt, ITERATIONS, 32, "sha256");
    return { name, keys: { storedKey: sha256(hmac(salted, "Client Key")), serverKey: hmac(salted, "Server Key") } };
  });

  /** State of one connection's exchange, between the client's first and final messages. */
  const start = (clientFirst: string) => {
    const gs2 = /^([ny](?:=[^,]*)?|p=[^,]*),[^,]*,/.exec(clientFirst);
    if (!gs2) return null;
    const clientFirstBare = clientFirst.slice(gs2[0].length);
    const clientNonce = /(?:^|,)r=([^,]+)/.exec(clientFirstBare)?.[1];
    if (!clientNonce) return null;
    const nonce = clientNonce + randomBytes(18).toString("base64");
    const serverFirst = `r=${nonce},s=${salt.toString("base64")},i=${ITERATIONS}`;
    return {
      serverFirst,
      /** The credential the client proved it knows (with the server's signature for it), or null. */
      finish: (clientFinal: string): { credential: Credential; serverFinal: string } | null => {
        const match = /^(c=([^,]*),r=([^,]*)(?:,.*)?),p=([^,]+)$/.exec(clientFinal);
        if (!match || match[3] !== nonce) return null;
        // Channel binding is not offered here (no TLS on loopback): the header must echo the client's "n,," / "y,,".
        if (Buffer.from(match[2]!, "base64").toString() !== gs2[0]) return null;
        const authMessage = `${clientFirstBare},${serverFirst},${match[1]}`;
        const proof = Buffer.from(match[4]!, "base64");
        for (const credential of credentials) {
          const signature = hmac(credential.keys.storedKey, authMessage);
          if (proof.length !== signature.length) continue;
          const clientKey = Buffer.from(proof.map((b, i) => b ^ signature[i]!));
          if (timingSafeEqual(sha256(clientKey), credential.keys.storedKey)) {
            const serverSignature = hmac(credential.keys.serverKey, authMessage).toString("base64");
            return { credential, serverFinal: `v=${serverSignature}` };
          }
        }
        return null;
      },
    };
  };
  return { start };
};

// Backend messages of the exchange (Postgres protocol 3.0).

const message = (type: string, body: Buffer) => {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
};

const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

export const authSasl = () => message("R", Buffer.concat([int32(10), Buffer.from("SCRAM-SHA-256\0\0")]));
export const authSaslContinue = (data: string) => message("R", Buffer.concat([int32(11), Buffer.from(data)]));
export const authSaslFinal = (data: string) => message("R", Buffer.concat([int32(12), Buffer.from(data)]));

/** A FATAL ErrorResponse, as Postgres sends before it closes a connection. */
export const fatalError = (code: string, text: string) =>
  message("E", Buffer.concat([Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0`), Buffer.from([0])]));

/** The protocol version field of a startup message (3.0 = 196608), or null when `bytes` is not one. */
export const startupVersion = (bytes: Uint8Array): number | null => {
  if (bytes.length < 8) return null;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.readInt32BE(0) === bytes.length ? view.readInt32BE(4) : null;
};

/** `p` messages: SASLInitialResponse (mechanism, then the client-first message) or SASLResponse (client-final). */
export const readSaslInitial = (bytes: Uint8Array): { mechanism: string; data: string } | null => {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf[0] !== 0x70 || buf.length < 10) return null;
  const end = buf.indexOf(0, 5);
  if (end < 0 || end + 5 > buf.length) return null;
  const length = buf.readInt32BE(end + 1);
  const data = buf.subarray(end + 5, end + 5 + Math.max(0, length));
  return { mechanism: buf.subarray(5, end).toString(), data: data.toString() };
};

export const readSaslResponse = (bytes: Uint8Array): string | null => {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf[0] === 0x70 ? buf.subarray(5).toString() : null;
};
