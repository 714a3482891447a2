#!/usr/bin/env python3
"""Independent peers for Sigil's mdoc tests, from PyPI (Scripts/get-peers): pymdoccbor issues the
documents (IssuerAuth, MSO, digests), pycose signs the device's part, cbor2 writes what pymdoccbor
does not (deviceMac, DeviceAuthentication), pyca/cryptography makes the IACA PKI and the ECDH +
HKDF of the deviceMac, pyhpke and pyca/cryptography seal and open HPKE.

  mint TRANSCRIPT_HEX READER_PRIVATE_HEX   JSON: roots, times and every case (DeviceResponse hex)
  hpke-seal PUBLIC_HEX INFO_HEX PLAINTEXT_HEX      pyhpke, base mode: "enc ciphertext" (hex)
  hpke-seal-pyca PUBLIC_HEX INFO_HEX PLAINTEXT_HEX pyca/cryptography: "enc ciphertext" (hex)
  hpke-open PRIVATE_HEX ENC_HEX CIPHERTEXT_HEX INFO_HEX  pyhpke: the plaintext (hex)
  annexc-seal PUBLIC_HEX TRANSCRIPT_HEX RESPONSE_HEX  the EncryptedResponse (ISO/IEC 18013-7
                                                   Annex C) as base64url, sealed by pyhpke
"""
import base64
import copy
import datetime
import hashlib
import hmac
import json
import logging
import sys
import warnings

import cbor2
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.x509.oid import NameOID, ObjectIdentifier
from pycose.algorithms import Es256, Es384
from pycose.headers import Algorithm
from pycose.keys import EC2Key
from pycose.messages import Sign1Message
from pymdoccbor.mdoc.issuer import MdocCborIssuer

logging.disable(logging.CRITICAL)
warnings.filterwarnings("ignore")

MDL = "org.iso.18013.5.1.mDL"
MDL_NS = "org.iso.18013.5.1"
AAMVA_NS = "org.iso.18013.5.1.aamva"
MDL_DS = ObjectIdentifier("1.0.18013.5.1.2")


def coordinates(key):
    numbers = key.public_key().public_numbers()
    size = key.curve.key_size // 8 + (1 if key.curve.key_size % 8 else 0)
    return numbers.x.to_bytes(size, "big"), numbers.y.to_bytes(size, "big")


def private_bytes(key):
    size = key.curve.key_size // 8 + (1 if key.curve.key_size % 8 else 0)
    return key.private_numbers().private_value.to_bytes(size, "big")


def iaca_and_signer(curve, now):
    """An IACA root and a document signer under Annex B's profiles (B.1.2, B.1.4)."""
    hash_algorithm = hashes.SHA256() if isinstance(curve, ec.SECP256R1) else hashes.SHA384()
    iaca_key = ec.generate_private_key(curve)
    iaca_name = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"), x509.NameAttribute(NameOID.COMMON_NAME, "peer IACA")])
    distribution = x509.CRLDistributionPoints([x509.DistributionPoint([x509.UniformResourceIdentifier("https://iaca.example/crl")], None, None, None)])
    issuer_alt = x509.IssuerAlternativeName([x509.RFC822Name("iaca@iaca.example")])
    iaca = (
        x509.CertificateBuilder().subject_name(iaca_name).issuer_name(iaca_name).public_key(iaca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=2)).not_valid_after(now + datetime.timedelta(days=3650))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(iaca_key.public_key()), critical=False)
        .add_extension(issuer_alt, critical=False).add_extension(distribution, critical=False)
        .sign(iaca_key, hash_algorithm)
    )
    signer_key = ec.generate_private_key(curve)
    signer_name = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "US"), x509.NameAttribute(NameOID.COMMON_NAME, "peer document signer")])
    signer = (
        x509.CertificateBuilder().subject_name(signer_name).issuer_name(iaca_name).public_key(signer_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1000))
        .add_extension(x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([MDL_DS]), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(signer_key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(iaca_key.public_key()), critical=False)
        .add_extension(issuer_alt, critical=False).add_extension(distribution, critical=False)
        .sign(iaca_key, hash_algorithm)
    )
    return iaca, signer, signer_key


def issue(signer, signer_key, device_key, doctype, data, today):
    """One document issued by pymdoccbor: issuerSigned only (it writes no deviceSigned)."""
    p256 = isinstance(signer_key.curve, ec.SECP256R1)
    x, y = coordinates(signer_key)
    dx, dy = coordinates(device_key)
    issuer = MdocCborIssuer(
        private_key={"KTY": "EC2", "CURVE": "P_256" if p256 else "P_384", "ALG": "ES256" if p256 else "ES384",
                     "D": private_bytes(signer_key), "X": x, "Y": y, "KID": b"peer-ds"},
        alg="ES256" if p256 else "ES384",
    )
    response = issuer.new(
        doctype=doctype, data=data,
        devicekeyinfo={"KTY": "EC2", "CURVE": "P_256" if isinstance(device_key.curve, ec.SECP256R1) else "P_384", "X": dx, "Y": dy},
        validity={"issuance_date": today.isoformat(), "expiry_date": (today + datetime.timedelta(days=365)).isoformat()},
        x509_chain=[signer.public_bytes(serialization.Encoding.DER)],
    )
    return response["documents"][0]


def device_authentication(transcript, doctype, device_namespaces):
    """DeviceAuthenticationBytes (ISO/IEC 18013-5 §9.1.3.4), written by cbor2."""
    value = ["DeviceAuthentication", cbor2.loads(transcript), doctype, cbor2.CBORTag(24, device_namespaces)]
    return cbor2.dumps(cbor2.CBORTag(24, cbor2.dumps(value)))


def sign_device(document, transcript, device_key):
    """deviceSigned with a deviceSignature made by pycose (detached payload)."""
    namespaces = cbor2.dumps({})
    payload = device_authentication(transcript, document["docType"], namespaces)
    p256 = isinstance(device_key.curve, ec.SECP256R1)
    x, y = coordinates(device_key)
    message = Sign1Message(phdr={Algorithm: Es256 if p256 else Es384}, payload=None)
    message.key = EC2Key(crv="P_256" if p256 else "P_384", x=x, y=y, d=private_bytes(device_key))
    encoded = cbor2.loads(message.encode(tag=False, detached_payload=payload))
    document["deviceSigned"] = {"nameSpaces": cbor2.CBORTag(24, namespaces), "deviceAuth": {"deviceSignature": list(encoded)}}
    return document


def mac_device(document, transcript, device_key, reader_private):
    """deviceSigned with a deviceMac: HMAC-SHA-256 under HKDF-SHA-256(ECDH(reader, device),
    SHA-256(SessionTranscriptBytes), "EMacKey") over MAC_structure (RFC 9052 §6.3), by cbor2,
    hmac and pyca/cryptography."""
    namespaces = cbor2.dumps({})
    payload = device_authentication(transcript, document["docType"], namespaces)
    shared = reader_private.exchange(ec.ECDH(), device_key.public_key())
    salt = hashlib.sha256(cbor2.dumps(cbor2.CBORTag(24, transcript))).digest()
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"EMacKey").derive(shared)
    protected = cbor2.dumps({1: 5})
    tag = hmac.new(key, cbor2.dumps(["MAC0", protected, b"", payload]), hashlib.sha256).digest()
    document["deviceSigned"] = {"nameSpaces": cbor2.CBORTag(24, namespaces), "deviceAuth": {"deviceMac": [protected, {}, None, tag]}}
    return document


def response(*documents):
    return cbor2.dumps({"version": "1.0", "documents": list(documents), "status": 0}).hex()


def mint(transcript, reader_private_hex):
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    today = now.date()
    reader = ec.derive_private_key(int(reader_private_hex, 16), ec.SECP256R1())
    iaca, signer, signer_key = iaca_and_signer(ec.SECP256R1(), now)
    iaca384, signer384, signer384_key = iaca_and_signer(ec.SECP384R1(), now)
    data = {
        MDL_NS: {
            "family_name": "Mustermann", "given_name": "Erika", "birth_date": "1971-09-01",
            "issue_date": today.isoformat(), "expiry_date": (today + datetime.timedelta(days=365)).isoformat(),
            "issuing_country": "US", "document_number": "D1234567", "age_over_18": True, "age_over_65": False,
            "portrait": bytes(range(256)) * 8,
            "driving_privileges": [{"vehicle_category_code": "B", "issue_date": "2020-01-01",
                                    "codes": [{"code": "S01", "sign": "=", "value": "2"}]}],
        },
        AAMVA_NS: {"DHS_compliance": "F", "sex": 2, "organ_donor": 1},
    }
    device = ec.generate_private_key(ec.SECP256R1())
    device384 = ec.generate_private_key(ec.SECP384R1())
    other = ec.generate_private_key(ec.SECP256R1())

    def fresh(key=device, issuer=(signer, signer_key), doctype=MDL, elements=data):
        # pymdoccbor tags dates in the data it is given, in place: each document gets its own copy.
        return issue(issuer[0], issuer[1], key, doctype, copy.deepcopy(elements), today)

    cases = {
        "signature": response(sign_device(fresh(), transcript, device)),
        "mac": response(mac_device(fresh(), transcript, device, reader)),
        "es384": response(sign_device(fresh(device384, (signer384, signer384_key)), transcript, device384)),
        "two-documents": response(
            sign_device(fresh(), transcript, device),
            sign_device(fresh(doctype="org.iso.23220.photoid.1", elements={"org.iso.23220.1": {"family_name_unicode": "Mustermann"}}),
                        transcript, device)),
        "other-device-key": response(sign_device(fresh(), transcript, other)),
    }
    wrong = fresh()
    wrong["docType"] = "org.example.other"
    cases["wrong-doctype"] = response(sign_device(wrong, transcript, device))

    # Tampering after the issuer signed: an element's value, a digestID, the MSO, the device's signature.
    def tampered(change):
        document = sign_device(fresh(), transcript, device)
        change(document)
        return response(document)

    def change_element(document):
        items = document["issuerSigned"]["nameSpaces"][MDL_NS]
        for index, item in enumerate(items):
            decoded = cbor2.loads(item.value)
            if decoded["elementIdentifier"] == "family_name":
                decoded["elementValue"] = "Musterfrau"
                items[index] = cbor2.CBORTag(24, cbor2.dumps(decoded))

    def change_digest_id(document):
        items = document["issuerSigned"]["nameSpaces"][MDL_NS]
        decoded = cbor2.loads(items[0].value)
        decoded["digestID"] = 4242
        items[0] = cbor2.CBORTag(24, cbor2.dumps(decoded))

    def change_mso(document):
        payload = bytearray(document["issuerSigned"]["issuerAuth"][2])
        payload[len(payload) // 2] ^= 1
        document["issuerSigned"]["issuerAuth"][2] = bytes(payload)

    def change_signature(document):
        signature = document["deviceSigned"]["deviceAuth"]["deviceSignature"]
        value = bytearray(signature[3])
        value[5] ^= 1
        signature[3] = bytes(value)

    cases["tampered-element"] = tampered(change_element)
    cases["tampered-digest-id"] = tampered(change_digest_id)
    cases["tampered-mso"] = tampered(change_mso)
    cases["tampered-signature"] = tampered(change_signature)
    der = lambda certificate: certificate.public_bytes(serialization.Encoding.DER).hex()
    return {"iaca": der(iaca), "iaca384": der(iaca384), "now": int(now.timestamp()), "cases": cases}


def suite():
    from pyhpke import AEADId, CipherSuite, KDFId, KEMId
    return CipherSuite.new(KEMId.DHKEM_P256_HKDF_SHA256, KDFId.HKDF_SHA256, AEADId.AES128_GCM)


def main(arguments):
    command = arguments[0]
    if command == "mint":
        print(json.dumps(mint(bytes.fromhex(arguments[1]), arguments[2])))
    elif command == "hpke-seal":
        s = suite()
        key = s.kem.deserialize_public_key(bytes.fromhex(arguments[1]))
        enc, sender = s.create_sender_context(key, info=bytes.fromhex(arguments[2]))
        print(enc.hex(), sender.seal(bytes.fromhex(arguments[3])).hex())
    elif command == "hpke-seal-pyca":
        from cryptography.hazmat.primitives import hpke
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), bytes.fromhex(arguments[1]))
        sealed = hpke.Suite(hpke.KEM.P256, hpke.KDF.HKDF_SHA256, hpke.AEAD.AES_128_GCM).encrypt(
            bytes.fromhex(arguments[3]), key, info=bytes.fromhex(arguments[2]))
        print(sealed[:65].hex(), sealed[65:].hex())
    elif command == "hpke-open":
        s = suite()
        key = s.kem.deserialize_private_key(bytes.fromhex(arguments[1]))
        recipient = s.create_recipient_context(bytes.fromhex(arguments[2]), key, info=bytes.fromhex(arguments[4]))
        print(recipient.open(bytes.fromhex(arguments[3])).hex())
    elif command == "annexc-seal":
        s = suite()
        key = s.kem.deserialize_public_key(bytes.fromhex(arguments[1]))
        enc, sender = s.create_sender_context(key, info=bytes.fromhex(arguments[2]))
        cipher_text = sender.seal(bytes.fromhex(arguments[3]))
        encrypted = cbor2.dumps(["dcapi", {"enc": enc, "cipherText": cipher_text}])
        print(base64.urlsafe_b64encode(encrypted).rstrip(b"=").decode())
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    main(sys.argv[1:])
