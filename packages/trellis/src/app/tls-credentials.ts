import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { ConfigError, type TrellisConfig } from './config.ts';
import { privateKeyIn, readPemFile } from './pem-file.ts';

export interface TlsCredentials {
  readonly cert: string;
  readonly key: string;
}

/**
 * The certificate to serve HTTPS with: the files named by TLS_CERT/TLS_KEY, or (HTTPS=1, debug
 * only) a self-signed one for localhost created once under `varDir` and reused while valid.
 */
export async function tlsCredentials(config: TrellisConfig, varDir = 'var'): Promise<TlsCredentials | null> {
  if (config.tls) {
    const cert = readPemFile('TLS_CERT', config.tls.certFile);
    const key = readPemFile('TLS_KEY', config.tls.keyFile);
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(cert);
    } catch {
      throw new ConfigError('TLS_CERT', `"${config.tls.certFile}" is not a PEM certificate`);
    }
    // Checked here, where the variable can be named: the TLS server's own check threw OpenSSL's
    // words ("DECODER routines::unsupported", "key values mismatch") with a stack.
    if (!certificate.checkPrivateKey(privateKeyIn('TLS_KEY', config.tls.keyFile, key))) throw new ConfigError('TLS_KEY', `"${config.tls.keyFile}" is not the private key of the certificate in "${config.tls.certFile}" (TLS_CERT)`);
    return { cert, key };
  }
  if (!config.selfSignedHttps) return null;
  const certFile = join(varDir, 'tls', 'localhost.crt');
  const keyFile = join(varDir, 'tls', 'localhost.key');
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile, 'utf8');
    if (new Date(new X509Certificate(cert).validTo).getTime() > Date.now() + 86400_000) {
      return { cert, key: readFileSync(keyFile, 'utf8') };
    }
  }
  const notAfterDate = new Date(Date.now() + 365 * 86400_000);
  // Loaded here, not at the top: only HTTPS=1 needs it, and it is ~70 ms of every start.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  mkdirSync(dirname(certFile), { recursive: true });
  writeFileSync(certFile, pems.cert);
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  return { cert: pems.cert, key: pems.private };
}
