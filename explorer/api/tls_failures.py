"""A failed TLS handshake said in plain words, by its kind, not in OpenSSL's.

OpenSSL says `[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: IP address mismatch,
certificate is not valid for '10.0.0.1'. (_ssl.c:1006)`. What a person can do differs by kind:
name an authority (`Credentials.ca_bundle`) for a certificate nobody they trust signed, connect by another
name for a certificate made for other names, wait for a renewal for one that expired, use
http:// for a server that does not speak TLS at all. Each kind gets its own words here.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Literal

# OpenSSL's X509_V_ERR_* codes (ssl.SSLCertVerificationError.verify_code)
NOT_TRUSTED = {2, 19, 20, 21}  # issuer unknown, self-signed in the chain, no local issuer, leaf not verifiable
SELF_SIGNED = 18
EXPIRED = 10
NOT_YET_VALID = 9
NAME_MISMATCH = {62, 64}  # host name, IP address
NO_SHARED_VERSION = {"TLSV1_ALERT_PROTOCOL_VERSION", "UNSUPPORTED_PROTOCOL", "NO_PROTOCOLS_AVAILABLE"}
NOT_TLS = {"WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "HTTP_REQUEST", "PACKET_LENGTH_TOO_LONG"}


@dataclass(frozen=True)
class TlsFailure:
    """What went wrong (`summary`); its kind: "tls" when naming an authority can help (the hint is
    then the caller's, which names its way to give a CA bundle), "tls-certificate" when the certificate itself is
    wrong for this host (other names, out of date), "connect" when the other end speaks no TLS;
    and the hint for those two."""

    summary: str
    kind: Literal["tls", "tls-certificate", "connect"] = "tls"
    hint: str | None = None


def tls_failure(error: ssl.SSLError, host: str) -> TlsFailure:
    """`error` (from a handshake with `host`) as a TlsFailure."""
    if isinstance(error, ssl.SSLCertVerificationError):
        code = error.verify_code
        if code in NAME_MISMATCH:
            return TlsFailure(
                f"The certificate of {host} is for other names, not for {host}",
                "tls-certificate",
                hint="Connect by a name the certificate holds: change the host in the base URL to it.",
            )
        if code == EXPIRED:
            return TlsFailure(
                f"The certificate of {host} has expired",
                "tls-certificate",
                hint="The service must renew it; if it has, check the date and time of this computer.",
            )
        if code == NOT_YET_VALID:
            return TlsFailure(
                f"The certificate of {host} is not valid yet",
                "tls-certificate",
                hint="Check the date and time of this computer.",
            )
        if code == SELF_SIGNED:
            return TlsFailure(f"The certificate of {host} is self-signed: no authority vouches for it")
        if code in NOT_TRUSTED:
            return TlsFailure(f"The certificate of {host} is signed by an authority this computer does not trust")
        verify_message = (error.verify_message or "").rstrip(".")
        return TlsFailure(f"The certificate of {host} cannot be verified: {verify_message or 'no reason given'}")
    reason = error.reason or ""
    if reason in NOT_TLS:
        return TlsFailure(
            f"{host} does not answer in TLS there",
            "connect",
            hint="It may serve plain HTTP on that port, or another protocol: check the scheme and port of the URL.",
        )
    if reason in NO_SHARED_VERSION:
        return TlsFailure(
            f"{host} and this explorer share no TLS version",
            "connect",
            hint="The service needs a TLS version this computer's OpenSSL does not offer (or an older one).",
        )
    words = reason.replace("_", " ").lower() if reason else "the handshake failed"
    return TlsFailure(f"TLS failed with {host}: {words}")
