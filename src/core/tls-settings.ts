/** TLS as written in a profile or a request, and as Node's `https` takes it. */
/** TLS settings of a profile or a request. Relative paths resolve against the file that names them. */
export interface TlsSettings {
  /** Client certificate (PEM). */
  certFile?: string;
  /** Client private key (PEM), possibly encrypted (see `passphrase`). */
  keyFile?: string;
  /** Extra certificate authorities to trust for this request (PEM). */
  caFile?: string;
  /** A PKCS#12 bundle holding the client certificate and key. */
  pfxFile?: string;
  /** Passphrase of an encrypted key or of the PKCS#12 bundle. Usually `{{variable}}`. */
  passphrase?: string;
  /** Skip server certificate verification (always warned about on stderr). */
  insecureSkipVerify?: boolean;
}

/** What Node's `https` needs for one TLS setting (file contents, not paths). */
export interface TlsConnectionOptions {
  cert?: Buffer;
  key?: Buffer;
  ca?: Buffer[];
  pfx?: Buffer;
  passphrase?: string;
  /** `false` only when `insecureSkipVerify` / `--insecure` asked for it (always warned). */
  rejectUnauthorized?: boolean;
}
