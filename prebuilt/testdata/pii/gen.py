#!/usr/bin/env python3
"""Writes pii.jsonl: realistic texts with gold spans of personal data, and
near-misses (versions, dates, ids, prices, timestamps) with none.

Run from this directory: python3 gen.py > pii.jsonl. Fixed seed: the
output is the same each run. Spans are UTF-8 byte offsets, as Go reads a
string. The data is synthetic: no value is a real person's.
"""
import json, random

rng = random.Random(20261204)
FIRST = ["Ann", "Bob", "Carla", "Dmitri", "Emeka", "Fatima", "Giulia", "Hiro", "Ines", "Jonas", "Kavya", "Liam", "Mei", "Nora", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Ximena", "Yusuf", "Zoe"]
LAST = ["Lee", "Smith", "Garcia", "Okafor", "Rossi", "Tanaka", "Müller", "Dubois", "Kowalski", "Nguyen", "Haddad", "Johansson", "Silva", "Patel", "O'Brien", "Schmidt", "Novak", "Moreau", "Khan", "Larsen"]
DOMAINS = ["example.com", "mail.example.org", "corp.example.net", "example.co.uk", "uni.example.edu", "shop.example.io", "example.de", "post.example.fr", "example.info", "dept.example.gov"]
TLDS = ["com", "org", "net", "io", "co.uk", "de", "info", "biz", "edu", "fr", "nl", "app", "dev"]
WORDS = ["acme", "globex", "initech", "umbrella", "hooli", "vandelay", "stark", "wayne", "tyrell", "soylent", "wonka", "oscorp", "cyberdyne", "aperture", "blackmesa"]

def d(n): return "".join(rng.choice("0123456789") for _ in range(n))

def luhn_complete(prefix, length):
    body = prefix + d(length - len(prefix) - 1)
    total = 0
    for i, c in enumerate(reversed(body)):
        x = int(c)
        if i % 2 == 0:
            x *= 2
            if x > 9: x -= 9
        total += x
    return body + str((10 - total % 10) % 10)

def card():
    kind = rng.choice(["visa", "visa", "mc", "mc2", "amex", "disc", "jcb", "diners", "visa13", "visa19"])
    prefix, length = {"visa": ("4", 16), "mc": (str(rng.randint(51, 55)), 16), "mc2": (str(rng.randint(2221, 2720)), 16),
                      "amex": (rng.choice(["34", "37"]), 15), "disc": ("6011", 16), "jcb": ("35" + str(rng.randint(28, 89)), 16),
                      "diners": ("36", 14), "visa13": ("4", 13), "visa19": ("4", 19)}[kind]
    n = luhn_complete(prefix, length)
    style = rng.choice(["plain", "space", "dash"])
    if style == "plain" or length not in (15, 16):
        return n
    sep = " " if style == "space" else "-"
    if length == 15:
        return sep.join([n[:4], n[4:10], n[10:]])
    return sep.join(n[i:i + 4] for i in range(0, 16, 4))

def nanp():
    return str(rng.randint(2, 9)) + d(2), str(rng.randint(2, 9)) + d(2), d(4)

def phone():
    a, b, c = nanp()
    f = rng.choice([
        f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"{a}.{b}.{c}", f"+1 {a} {b} {c}", f"+1-{a}-{b}-{c}", f"1-{a}-{b}-{c}",
        f"({a}){b}-{c}", f"{a}-{b}-{c}x{d(3)}", f"+1 ({a}) {b}-{c}", f"001-{a}-{b}-{c}x{d(3)}", f"{a}.{b}.{c} ext. {d(2)}",
        f"+44 20 {d(4)} {d(4)}", f"+44 7{d(3)} {d(6)}", f"020 {d(4)} {d(4)}", f"07{d(3)} {d(6)}", f"+44 (0)20 {d(4)} {d(4)}",
        f"+49 30 {d(8)}", f"+49 (0)89 {d(7)}", f"030 {d(8)}", f"+33 1 {d(2)} {d(2)} {d(2)} {d(2)}", f"+33 6 {d(2)} {d(2)} {d(2)} {d(2)}",
        f"01 {d(2)} {d(2)} {d(2)} {d(2)}", f"+81 3-{d(4)}-{d(4)}", f"+91 9{d(4)} {d(5)}", f"+61 2 {d(4)} {d(4)}", f"+34 6{d(2)} {d(3)} {d(3)}",
        f"+39 06 {d(4)} {d(4)}", f"+55 11 9{d(4)}-{d(4)}", f"+86 10 {d(4)} {d(4)}", f"+7 495 {d(3)}-{d(2)}-{d(2)}", f"+31 20 {d(3)} {d(4)}",
        f"+353 1 {d(3)} {d(4)}", f"+1.{a}.{b}.{c}", f"+{rng.randint(20, 99)}{d(9)}", f"+1{a}{b}{c}",
    ])
    return f

def email():
    fn, ln = rng.choice(FIRST).lower(), rng.choice(LAST).lower().replace("'", "").replace("ü", "u")
    local = rng.choice([f"{fn}.{ln}", f"{fn[0]}{ln}", f"{fn}_{ln}{d(2)}", f"{fn}+{rng.choice(['news', 'work', 'x'])}", f"{ln}.{fn}{d(3)}", fn])
    return f"{local}@{rng.choice(DOMAINS)}"

def ipv4():
    return ".".join(str(rng.choice([rng.randint(1, 254), rng.randint(1, 99), 10, 192, 172])) for _ in range(4))

def ipv6():
    groups = ["%x" % rng.randint(0, 0xffff) for _ in range(8)]
    f = rng.choice(["full", "zero", "comp", "ll", "loop", "doc"])
    if f == "full": return ":".join(groups)
    if f == "zero": return ":".join(g.zfill(4) for g in groups)
    if f == "comp": return ":".join(groups[:3]) + "::" + ":".join(groups[6:])
    if f == "ll": return "fe80::" + ":".join(groups[4:])
    if f == "loop": return "::1"
    return "2001:db8::" + groups[7]

def ssn():
    area = rng.choice([x for x in range(1, 900) if x != 666])
    s = f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"
    return s if rng.random() < 0.85 else s.replace("-", " ")

IBAN = {"GB": ("4a6n8n", 22), "DE": ("18n", 22), "FR": ("10n11c2n", 27), "ES": ("20n", 24), "IT": ("1a10n12c", 27), "NL": ("4a10n", 18),
        "BE": ("12n", 16), "CH": ("5n12c", 21), "AT": ("16n", 20), "PL": ("24n", 28), "IE": ("4a14n", 22), "SE": ("20n", 24)}

def bban(spec):
    out, num = "", ""
    for ch in spec:
        if ch.isdigit():
            num += ch
            continue
        n = int(num); num = ""
        pool = {"n": "0123456789", "a": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "c": "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"}[ch]
        out += "".join(rng.choice(pool) for _ in range(n))
    return out

def iban():
    cc = rng.choice(list(IBAN))
    b = bban(IBAN[cc][0])
    num = "".join(str(int(c, 36)) for c in b + cc + "00")
    check = 98 - int(num) % 97
    s = f"{cc}{check:02d}{b}"
    if rng.random() < 0.5:
        s = " ".join(s[i:i + 4] for i in range(0, len(s), 4))
    return s

def url():
    w, tld = rng.choice(WORDS), rng.choice(TLDS)
    path = rng.choice(["", "/", "/about", "/products/item-42", "/search?q=shoes&page=2", "/docs/v2/index.html", "/a/b#section-3", "/u/" + d(6)])
    return rng.choice([f"https://www.{w}.{tld}{path}", f"http://{w}.{tld}{path}", f"https://shop.{w}.{tld}{path}", f"www.{w}.{tld}{path}",
                       f"{w}.{tld}{path or '/'}", f"https://{w}.{tld}", f"ftp://files.{w}.{tld}/pub/readme.txt", f"https://{w}.{tld}:8443{path}"])

GEN = {"card_number": card, "phone": phone, "email": email, "ip": lambda: ipv4() if rng.random() < 0.6 else ipv6(), "us_ssn": ssn, "iban": iban, "url": url}

TEMPLATES = [
    "Please contact {name} at {email} or call {phone}.",
    "Hi {name}, your card ending in {card_number} was charged $42.10 on 2024-03-15.",
    "Customer: {name}\nPhone: {phone}\nEmail: {email}\nSSN: {us_ssn}",
    "Login from {ip} at 2024-05-01T12:00:00Z for user {email}",
    "Wire the refund to IBAN {iban} (ref INV-000{n3}) by Friday.",
    "Details are at {url} if you need them.",
    "My number is {phone}, text me anytime!",
    "Card: {card_number}  Exp: 04/27  CVV: ***",
    "The server at {ip} stopped answering on port 8080 after v2.14.1 was deployed.",
    "Her social security number, {us_ssn}, was on the form dated 15/01/2024.",
    '{{"name": "{name}", "email": "{email}", "phone": "{phone}"}}',
    "Send the invoice to {email}; the account is {iban}.",
    "See {url}. The price is $1,299.99 until Jan 15, 2024.",
    "[{time}] GET /api/v1/orders/{n5} from {ip} took 231 ms",
    "Emergency contact: {name}, {phone} (mobile).",
    "Paid with {card_number} for order ORD-2024-{n6}.",
    "employee_ssn={us_ssn} employee_email={email}",
    "Reach support via {url} or {phone}",
    "Bank details - IBAN: {iban}, BIC: DEUTDEFF",
    "Allowed CIDR: {ip}/32; blocked: 0.0.0.0/0",
    "{name} ({email}) asked us to call back on {phone} about {url}",
    "Charge {card_number}, then email the receipt to {email}.",
    "SSN {us_ssn} / DOB 1984-07-23 / phone {phone}",
    "Peer {ip} connected; session 7f3a9c handed to worker-3.",
    "Transfer EUR 1.250,00 to {iban} on 2025-02-01.",
]

NEAR = [
    "Upgraded from v2.14.1 to v2.15.0 on 2024-01-15 at 10:30:15.",
    "Go 1.26.8, Python 3.12.1 and Node 20.11.0 are installed.",
    "Order ORD-2024-558812 shipped; tracking 1Z999AA10123456784.",
    "Total: $1,299.99 (was $1,499.00), tax 8.25%.",
    "The meeting is on 15/01/2024 from 09:00 to 10:30.",
    "Timestamp 2024-05-01T12:00:00.123Z, epoch 1714564800.",
    "Invoice INV-000123 for 3 items, SKU 12345-678.",
    "Build 4512 passed 1,024 of 1,024 tests in 37.5 s.",
    "ISBN 978-3-16-148410-0, page 214, edition 3.",
    "Room 1204, floor 12, zip 94105.",
    "Pi is 3.14159 and e is 2.71828.",
    "The card 4111 1111 1111 1112 fails the check digit.",
    "Population: 8,336,817 (2023 estimate).",
    "Read config.yaml, main.go and README.md first.",
    "Latency p99 was 120.5 ms over 1,000,000 requests.",
    "The release is tagged 4.2.0 and 4.2.1-rc.1.",
    "Coordinates 48.8566, 2.3522 mark the spot.",
    "Batch 2024-0115 finished in 00:03:27.",
    "Ratio 16:9 at 1920x1080, 60 Hz.",
    "Use the HTTP/1.1 API on localhost:8080.",
    "Counts: 12 34 56 78 and 90.",
    "Serial number SN-88213-X, part 4471-22.",
    "Due 2025-12-31; amount EUR 12.345,67.",
    "Error code 0x80070057 at offset 0x1F4.",
    "Checksum sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.",
    "Ticket #48213 was merged in PR 1177.",
    "At 10:30:15.250 the job retried (attempt 3 of 5).",
    "Version string 1.2.3-beta+exp.sha.5114f85.",
    "Store hours: 9-5, Mon-Fri; closed 12/25.",
    "The std::vector<int> has 1024 elements.",
]

def fill(template):
    text, spans = "", []
    i = 0
    while i < len(template):
        if template.startswith("{{", i) or template.startswith("}}", i):
            text += template[i]; i += 2; continue
        if template[i] != "{":
            text += template[i]; i += 1; continue
        j = template.index("}", i)
        key = template[i + 1:j]
        if key in GEN:
            v = GEN[key]()
            start = len(text.encode())
            text += v
            spans.append({"kind": key, "start": start, "end": len(text.encode())})
        elif key == "name":
            text += rng.choice(FIRST) + " " + rng.choice(LAST)
        elif key == "time":
            text += f"2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)} {rng.randint(10, 23)}:{d(1)}{d(1)}:{rng.randint(10, 59)}"
        elif key.startswith("n"):
            text += d(int(key[1:]))
        i = j + 1
    return {"text": text, "spans": spans}

rows = [fill(rng.choice(TEMPLATES)) for _ in range(420)]
rows += [{"text": t, "spans": []} for t in NEAR]
for r in rows:
    print(json.dumps(r, ensure_ascii=False))
