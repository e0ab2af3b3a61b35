"""A local certificate authority for the sandbox's HTTPS, kept under the user data directory.

The authority is made once and reused, so a client trusts it once (`--ca-bundle`, or
`curl --cacert`). Each start issues a fresh server certificate for the names it is served on.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from explorer.sandbox.address import is_everywhere, lan_address

CA_FILE = "sandbox-ca.pem"
CA_KEY_FILE = "sandbox-ca-key.pem"
SERVER_FILE = "sandbox-server.pem"
SERVER_KEY_FILE = "sandbox-server-key.pem"


@dataclass(frozen=True)
class TLSFiles:
    ca: Path
    certificate: Path
    key: Path


def write_private(path: Path, data: bytes) -> None:
    """Write a file only its owner can read, created with that mode (never widened later)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.chmod(path, 0o600)


def pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def load_or_create_authority(directory: Path) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    cert_path, key_path = directory / CA_FILE, directory / CA_KEY_FILE
    if cert_path.exists() and key_path.exists():
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        if isinstance(key, ec.EllipticCurvePrivateKey) and cert.not_valid_after_utc > now() + dt.timedelta(days=30):
            return cert, key
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Explorer sandbox"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Explorer sandbox local CA ({socket.gethostname()[:32]})"),
        ]
    )
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now() - dt.timedelta(days=1))
        .not_valid_after(now() + dt.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    write_private(key_path, pem_key(key))
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert, key


def server_files(directory: Path, names: list[str]) -> TLSFiles:
    """The authority (made if missing) and a new server certificate for `names`."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    ca_cert, ca_key = load_or_create_authority(directory)
    key = ec.generate_private_key(ec.SECP256R1())
    alternatives: list[x509.GeneralName] = []
    for name in dict.fromkeys(names):
        try:
            alternatives.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alternatives.append(x509.DNSName(name))
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now() - dt.timedelta(days=1))
        .not_valid_after(now() + dt.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_cert.public_key()),  # type: ignore[arg-type]
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    files = TLSFiles(directory / CA_FILE, directory / SERVER_FILE, directory / SERVER_KEY_FILE)
    write_private(files.key, pem_key(key))
    files.certificate.write_bytes(
        cert.public_bytes(serialization.Encoding.PEM) + ca_cert.public_bytes(serialization.Encoding.PEM)
    )
    return files


def names_for(host: str) -> list[str]:
    """What a client may call this server: loopback always, and the host's own names when exposed."""
    names = ["localhost", "127.0.0.1", "::1"]
    if not is_everywhere(host):
        return [host, *names]
    hostname = socket.gethostname()
    names.append(hostname)
    with contextlib.suppress(OSError):
        names += [str(info[4][0]) for info in socket.getaddrinfo(hostname, None)]
    names.append(lan_address(host))  # the address the banner gives a class
    return [name for name in names if "%" not in name]


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)
