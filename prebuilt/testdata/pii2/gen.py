#!/usr/bin/env python3
"""Writes pii2.jsonl: a second PII set, unlike testdata/pii in its
templates (chat turns, logs, CSV rows, markdown, JSON, tickets) and its
formats (real-world phone spellings, cards grouped 4-6-5 and 4-6-4, IBANs
of many countries printed in fours, compressed IPv6, URLs without a
scheme, emails with tags and deep subdomains), plus near-misses that must
stay (versions, dates, times, UUIDs, SHAs, prices, sizes, positions,
ISBNs, arithmetic).

Run from this directory: python3 gen.py > pii2.jsonl. Fixed seed. Spans
are UTF-8 byte offsets. Every value is synthetic.
"""
import json, random

rng = random.Random(424242)

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
    k = rng.choice(["amex", "diners", "visa", "mc", "disc", "visa", "mc"])
    if k == "amex":
        n = luhn_complete(rng.choice(["34", "37"]), 15)
        sep = rng.choice([" ", "-", ""])
        return sep.join([n[:4], n[4:10], n[10:]])
    if k == "diners":
        n = luhn_complete(rng.choice(["300", "305", "36", "38"]), 14)
        sep = rng.choice([" ", "-", ""])
        return sep.join([n[:4], n[4:10], n[10:]])
    n = luhn_complete({"visa": "4", "mc": str(rng.randint(51, 55)), "disc": "6011"}[k], 16)
    sep = rng.choice([" ", "-", "", " "])
    return sep.join(n[i:i + 4] for i in range(0, 16, 4))

def nanp():
    return str(rng.randint(2, 9)) + d(2), str(rng.randint(2, 9)) + d(2), d(4)

def phone():
    a, b, c = nanp()
    return rng.choice([
        f"+44 20 {d(4)} {d(4)}", f"({a}) {b}-{c}", f"{a}.{b}.{c}", f"+49 30 {d(6)}", f"+49 30 {d(8)}",
        f"+33 1 {d(2)} {d(2)} {d(2)} {d(2)}", f"+33 6 {d(2)} {d(2)} {d(2)} {d(2)}", f"+91 9{d(4)} {d(5)}",
        f"+1 {a}-{b}-{c}", f"{a}-{b}-{c}", f"+61 2 {d(4)} {d(4)}", f"+81 3-{d(4)}-{d(4)}", f"+34 91 {d(3)} {d(2)} {d(2)}",
        f"+39 06 {d(4)} {d(4)}", f"+31 20 {d(3)} {d(4)}", f"+55 11 9{d(4)}-{d(4)}", f"+7 495 {d(3)}-{d(2)}-{d(2)}",
        f"+353 1 {d(3)} {d(4)}", f"+46 8 {d(3)} {d(3)} {d(2)}", f"+65 {d(4)} {d(4)}", f"+27 21 {d(3)} {d(4)}",
        f"+1 ({a}) {b}-{c}", f"1 ({a}) {b}-{c}", f"+41 44 {d(3)} {d(2)} {d(2)}", f"0{d(2)} {d(4)} {d(4)}",
        f"+86 138 {d(4)} {d(4)}", f"+52 55 {d(4)} {d(4)}", f"+1.{a}.{b}.{c}",
    ])

def iban_make(cc, bban):
    num = "".join(str(int(ch, 36)) for ch in bban + cc + "00")
    check = 98 - int(num) % 97
    return cc + f"{check:02d}" + bban

def alnum(n): return "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(n))
def up(n): return "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(n))

def iban():
    cc, bban = rng.choice([
        ("GB", up(4) + d(14)), ("DE", d(18)), ("FR", d(10) + alnum(11) + d(2)), ("ES", d(20)), ("IT", up(1) + d(10) + alnum(12)),
        ("NL", up(4) + d(10)), ("BE", d(12)), ("CH", d(5) + alnum(12)), ("AT", d(16)), ("PL", d(24)), ("SE", d(20)),
        ("IE", up(4) + d(14)), ("PT", d(21)), ("NO", d(11)), ("DK", d(14)), ("FI", d(14)), ("LU", d(3) + alnum(13)),
        ("SA", d(2) + alnum(18)), ("AE", d(19)), ("TR", d(5) + "0" + alnum(16)),
    ])
    n = iban_make(cc, bban)
    if rng.random() < 0.6:
        return " ".join(n[i:i + 4] for i in range(0, len(n), 4))
    return n

FIRST = ["ana", "ben", "chloe", "dev", "elif", "farid", "greta", "hugo", "isla", "jin", "kofi", "lena", "mateo", "nadia", "oskar", "paula"]
def email():
    f, l = rng.choice(FIRST), rng.choice(FIRST)
    user = rng.choice([f, f + "." + l, f + "+" + rng.choice(["news", "billing", "jira", "x1"]), f + "_" + l + d(2), f[0] + l, f + "-" + l])
    dom = rng.choice(["example.com", "eu.mail.example.org", "dept.cs.uni-example.edu", "example.co.uk", "corp-example.io",
                      "example.com.br", "a.b.c.example.net", "example.travel", "example.museum", "example.ch"])
    return user + "@" + dom

def ip():
    return rng.choice([
        f"{rng.randint(11, 223)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
        "::1", "fe80::1%eth0", "2001:db8::", f"2001:db8::{rng.randint(1, 0xffff):x}", f"fe80::{rng.randint(1, 0xffff):x}:{rng.randint(1, 0xffff):x}",
        f"2001:0db8:85a3:0000:0000:8a2e:0370:{rng.randint(1, 0xffff):04x}", f"2a00:1450:4001:{rng.randint(1, 0xfff):x}::200e",
        f"192.168.{rng.randint(0, 255)}.{rng.randint(1, 254)}", f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
        f"::ffff:{rng.randint(11, 223)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
    ])

def ssn():
    while True:
        a = rng.randint(1, 899)
        if a != 666: break
    return rng.choice(["{:03d}-{:02d}-{:04d}", "{:03d} {:02d} {:04d}"]).format(a, rng.randint(1, 99), rng.randint(1, 9999))

def url():
    host = rng.choice(["www.example.com", "docs.example.org", "example.io", "shop.example.co.uk", "api.example.dev", "www.example.de"])
    path = rng.choice(["", "/", "/path", "/a/b?x=1&y=2", "/docs/install#linux", "/u/42/settings", "/search?q=red+shoes"])
    scheme = rng.choice(["https://", "http://", "", "", "https://"])
    if scheme == "" and not host.startswith("www."):
        host = "www." + host.split(".", 1)[1] if host.count(".") > 1 else "www." + host
    return scheme + host + path

GEN = {"card_number": card, "phone": phone, "email": email, "ip": ip, "us_ssn": ssn, "iban": iban, "url": url}

TEMPLATES = {
    "card_number": ["Charge it to my Amex {}, exp 09/28.", "| visa | {} | approved |", "user: my card is {} can you check the refund?",
                    "payment_method: card ending… no wait, full number {}", "Diners Club {} was declined (code 05).", "`{}` is the card on file",
                    "Card no.: {}\nName on card: H. Ito"],
    "phone": ["Call me at {} after 6pm.", "Tel: {}", "Support line — {} (Mon–Fri)", "> Reach the London office on {}.", "whatsapp {} pls",
              "Kontakt: {} (Zentrale)", "Numéro : {}", "phone,{},verified", "- mobile: {}", "Fax {} / same as office"],
    "email": ["cc {} on the thread", "From: {}\nSubject: invoice", "<{}>", "mailto:{}", "Ping {}!", "| owner | {} |", "reply-to={}",
              "Contact: `{}`", "(email: {})"],
    "ip": ["ssh root@{} -p 2222", "client={} status=403", "Listening on [{}]:8080", "peer {} timed out", "X-Forwarded-For: {}",
           "ping {}", "allow from {};", "nameserver {}"],
    "us_ssn": ["SSN {} on the W-2", "Social: {}", "ssn,{},employee", "Her social security number is {}.", "Tax ID (SSN): {}"],
    "iban": ["IBAN: {}", "Please wire to {} (ref 2291).", "Bankverbindung {} BIC DEUTDEFF", "| {} | EUR |", "pay into {} by Friday"],
    "url": ["see {} for details", "Docs: {}", "[link]({})", "Open {} in a browser.", "redirected to {}, then 404", "source: {}"],
}

NEG = [
    lambda: f"Upgraded from v{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 30)} to {rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 30)}.",
    lambda: f"Build {rng.randint(1, 9)}.{rng.randint(0, 9)}.{rng.randint(0, 99)}.{rng.randint(100, 9999)} released.",
    lambda: f"Meeting on 2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d} at {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.",
    lambda: f"Due {rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/2026, reminder sent {rng.randint(1, 12)}/{rng.randint(1, 28)}/25.",
    lambda: "request id %08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(48)),
    lambda: "commit %040x fixes the race" % rng.getrandbits(160),
    lambda: "merged %07x into main" % rng.getrandbits(28),
    lambda: f"Order #{d(8)} shipped; tracking {d(12)}.",
    lambda: f"Total: ${rng.randint(1, 9999)}.{d(2)} (tax ${rng.randint(1, 99)}.{d(2)})",
    lambda: f"EUR {rng.randint(1, 999)}.{d(3)},{d(2)} paid",
    lambda: f"file.tar.gz is {rng.randint(1, 999)}.{rng.randint(0, 9)} MB ({d(9)} bytes)",
    lambda: f"main.go:{rng.randint(1, 999)}:{rng.randint(1, 80)}: undefined: foo",
    lambda: f"at com.example.App.run(App.java:{rng.randint(1, 999)})",
    lambda: f"ISBN 978-{rng.randint(0, 1)}-{d(3)}-{d(5)}-{d(1)}",
    lambda: f"{rng.randint(100, 999)} * {rng.randint(100, 999)} = {rng.randint(10000, 999999)}",
    lambda: f"elapsed {rng.randint(1, 59)}m{rng.randint(1, 59)}.{d(3)}s, p99 {rng.randint(1, 999)}.{d(2)}ms",
    lambda: f"coords {rng.uniform(-90, 90):.6f}, {rng.uniform(-180, 180):.6f}",
    lambda: f"See section {rng.randint(1, 9)}.{rng.randint(1, 9)}.{rng.randint(1, 9)} and RFC {rng.randint(1000, 9999)}.",
    lambda: f"pid {d(5)} exited with status {rng.randint(0, 255)}",
    lambda: f"timestamp {rng.randint(1600000000, 1800000000)}{d(3)}",
    lambda: f"Room {rng.randint(100, 999)}, floor {rng.randint(1, 30)}, ext. policy v{rng.randint(2, 9)}",
    lambda: f"require yaml v0.{rng.randint(20, 31)}.{rng.randint(0, 9)} // indirect",
    lambda: f"python3.{rng.randint(8, 13)} -m pip install numpy=={rng.randint(1, 2)}.{rng.randint(0, 26)}.{rng.randint(0, 5)}",
    lambda: f"the ratio is 3:{rng.randint(1, 9)} and scale 1:{rng.randint(100, 50000)}",
    lambda: f"Serial: SN-{d(4)}-{d(4)}-{d(4)}",
    lambda: f"config.yaml line {rng.randint(1, 400)}, col {rng.randint(1, 80)}; README.md updated",
    lambda: f"Score {rng.randint(0, 100)}/{100} — {rng.randint(1, 9)}.{rng.randint(0, 9)} stars from {d(4)} reviews",
    lambda: f"ETA {rng.randint(1, 12)}:{rng.randint(0, 59):02d} PM, gate B{rng.randint(1, 40)}",
    lambda: f"sha256:{rng.getrandbits(256):064x}",
    lambda: f"Invoice INV-{d(6)} dated {rng.randint(2019, 2026)}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}",
]

rows = []
for _ in range(300):
    k = rng.choice(list(GEN))
    v = GEN[k]()
    tpl = rng.choice(TEMPLATES[k])
    # sometimes a second value of another kind
    text = tpl.format(v)
    pre = tpl.split("{}")[0]
    s = len(pre.encode())
    spans = [{"kind": k, "start": s, "end": s + len(v.encode())}]
    if rng.random() < 0.35:
        k2 = rng.choice([x for x in GEN if x != k])
        v2 = GEN[k2]()
        t2 = rng.choice(TEMPLATES[k2])
        joiner = rng.choice([" ", "\n", " | ", "; "])
        off = len((text + joiner).encode()) + len(t2.split("{}")[0].encode())
        text = text + joiner + t2.format(v2)
        spans.append({"kind": k2, "start": off, "end": off + len(v2.encode())})
    rows.append({"text": text, "spans": spans})
for _ in range(160):
    rows.append({"text": rng.choice(NEG)(), "spans": []})
rng.shuffle(rows)
for r in rows:
    print(json.dumps(r, ensure_ascii=False))
