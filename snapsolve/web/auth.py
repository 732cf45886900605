"""Access to the API off the loopback: a random token per run (as Jupyter does) and a self-signed certificate.

`TokenGate` refuses, with 401, every HTTP request and WebSocket handshake
under ``/api/`` that does not carry the run's token, from any client (the
loopback included). The page, its files and the API documentation stay
readable: they hold no data. The token travels as ``?token=...`` (the
printed URL and its QR code; the only way a browser's WebSocket can send it)
or as the header ``Authorization: Bearer ...`` (``token ...`` is accepted
too).

`ensure_certificate` makes, on first use, a self-signed certificate (ECDSA
P-256, SHA-256) in the user's configuration folder, so that a phone browser
gets a secure context (its camera needs one) after accepting it once.
"""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from ..errors import Kind

#: Bytes of randomness in a run's token (``secrets.token_urlsafe``; 32 URL-safe characters).
TOKEN_BYTES = 24
#: Paths the token guards (every API route, the live WebSocket among them).
GUARDED_PREFIX = "/api/"
#: Days a generated certificate is valid (Apple's platforms refuse server certificates valid longer than 825).
CERTIFICATE_DAYS = 825
#: A certificate within this many days of its end is made again.
RENEW_DAYS = 14


def new_token() -> str:
    """A fresh random access token (URL-safe text)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def request_token(scope: dict) -> str | None:
    """The token an ASGI request or WebSocket handshake carries (query ``token``, or the Authorization header)."""
    for name, value in scope.get("headers") or ():
        if name == b"authorization":
            kind, _, credential = value.decode("latin-1").strip().partition(" ")
            if kind.lower() in ("bearer", "token") and credential.strip():
                return credential.strip()
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
    return values[-1] if values else None


class TokenGate:
    """ASGI middleware: 401 for requests and WebSocket handshakes under GUARDED_PREFIX without the token.

    Parameters
    ----------
    app : ASGI application
    token : str
        The run's token; compared in constant time.
    """

    def __init__(self, app, token: str):
        if not token:
            raise ValueError("TokenGate needs a non-empty token")
        self.app, self.token = app, token

    def allowed(self, scope: dict) -> bool:
        if not scope.get("path", "").startswith(GUARDED_PREFIX):
            return True
        given = request_token(scope)
        return given is not None and secrets.compare_digest(given.encode(), self.token.encode())

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket") or self.allowed(scope):
            return await self.app(scope, receive, send)
        body = json.dumps(
            {
                "detail": "missing or wrong access token: open the page through the link "
                "snapsolve serve printed (it ends in ?token=...)"
            }
        ).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"www-authenticate", b"Bearer"),
        ]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": Kind.UNAUTHORISED.http_status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await receive()  # websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            await send(
                {"type": "websocket.http.response.start", "status": Kind.UNAUTHORISED.http_status, "headers": headers}
            )
            await send({"type": "websocket.http.response.body", "body": body})
        else:  # a server without the denial-response extension answers 403
            await send({"type": "websocket.close", "code": 1008, "reason": "missing or wrong access token"})


def config_folder() -> Path:
    """snapsolve's folder in the user's configuration (``$XDG_CONFIG_HOME/snapsolve`` or ``~/.config/snapsolve``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "snapsolve"


@dataclass(frozen=True)
class Certificate:
    """A certificate and its key on disk.

    Attributes
    ----------
    certfile, keyfile : Path
        PEM files.
    fingerprint : str
        SHA-256 of the certificate (DER), as browsers show it: 32 hex pairs joined by ``:``.
    created : bool
        Made by this call (first run, or the old one was near its end).
    """

    certfile: Path
    keyfile: Path
    fingerprint: str
    created: bool = False


def fingerprint(certfile: Path) -> str:
    """SHA-256 fingerprint of a PEM certificate, ``AB:CD:...``.

    Raises
    ------
    ValueError
        The file holds no PEM certificate.
    """
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    cert = x509.load_pem_x509_certificate(Path(certfile).read_bytes())
    digest = hashlib.sha256(cert.public_bytes(serialization.Encoding.DER)).hexdigest().upper()
    return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


def _still_good(certfile: Path, keyfile: Path) -> bool:
    from cryptography import x509

    if not (certfile.is_file() and keyfile.is_file()):
        return False
    try:
        cert = x509.load_pem_x509_certificate(certfile.read_bytes())
    except ValueError:
        return False
    left = cert.not_valid_after_utc - datetime.datetime.now(datetime.timezone.utc)
    return left > datetime.timedelta(days=RENEW_DAYS)


def _subject_names(addresses: tuple[str, ...]) -> list:
    """The certificate's subject alternative names (``x509.GeneralName``): ``localhost``, ``127.0.0.1``,
    ``::1`` and `addresses`, each an IP address where it parses as one, else a DNS name; no repeats."""
    from cryptography import x509

    names: list[x509.GeneralName] = [x509.DNSName("localhost")]
    for address in ("127.0.0.1", "::1", *addresses):
        try:
            ip = x509.IPAddress(ipaddress.ip_address(address))
        except ValueError:
            if x509.DNSName(address) not in names:
                names.append(x509.DNSName(address))
            continue
        if ip not in names:
            names.append(ip)
    return names


def _self_signed(key, names: list):
    """A self-signed ``x509.Certificate`` for `key` (an EC private key) naming `names`, valid from five
    minutes ago for CERTIFICATE_DAYS days, its own CA for serving HTTPS."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, "snapsolve serve"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "snapsolve (self-signed)"),
        ]
    )
    now = datetime.datetime.now(datetime.timezone.utc)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=CERTIFICATE_DAYS))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )


def ensure_certificate(folder: Path | None = None, addresses: tuple[str, ...] = ()) -> Certificate:
    """The self-signed certificate in `folder`, made first when missing, unreadable or near its end.

    Parameters
    ----------
    folder : Path, optional
        Where ``cert.pem`` and ``key.pem`` live; defaults to `config_folder`.
        Made with mode 0700, the key written with mode 0600.
    addresses : tuple of str
        IP addresses or host names the certificate names (besides
        ``localhost`` and ``127.0.0.1``), e.g. the machine's LAN address.

    Returns
    -------
    Certificate

    Raises
    ------
    OSError
        The folder or the files cannot be written.
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    folder = Path(folder) if folder is not None else config_folder()
    certfile, keyfile = folder / "cert.pem", folder / "key.pem"
    if _still_good(certfile, keyfile):
        return Certificate(certfile, keyfile, fingerprint(certfile))
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = ec.generate_private_key(ec.SECP256R1())
    cert = _self_signed(key, _subject_names(addresses))
    pem_key = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    descriptor = os.open(keyfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as fh:
        fh.write(pem_key)
    os.chmod(keyfile, 0o600)
    certfile.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return Certificate(certfile, keyfile, fingerprint(certfile), created=True)
