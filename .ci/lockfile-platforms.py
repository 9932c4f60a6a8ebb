#!/usr/bin/env python3
# Usage: python3 .ci/lockfile-platforms.py package-lock.json  (after any npm install that rewrote the lock)
"""Adds lock entries for platform binaries the registry mirror does not serve (never installed here)."""
import json, sys
path = sys.argv[1]
lock = json.load(open(path))
pk = lock['packages']
missing = {
  'litesvm-darwin-arm64': ('1.5.0', ['arm64'], ['darwin'], None),
  'litesvm-darwin-x64': ('1.5.0', ['x64'], ['darwin'], None),
  'litesvm-linux-arm64-gnu': ('1.5.0', ['arm64'], ['linux'], ['glibc']),
  'litesvm-linux-arm64-musl': ('1.5.0', ['arm64'], ['linux'], ['musl']),
  'litesvm-linux-x64-musl': ('1.5.0', ['x64'], ['linux'], ['musl']),
  '@msgpackr-extract/msgpackr-extract-darwin-arm64': ('3.0.7', ['arm64'], ['darwin'], None),
  '@msgpackr-extract/msgpackr-extract-darwin-x64': ('3.0.7', ['x64'], ['darwin'], None),
  '@msgpackr-extract/msgpackr-extract-linux-arm': ('3.0.7', ['arm'], ['linux'], None),
  '@msgpackr-extract/msgpackr-extract-win32-x64': ('3.0.7', ['x64'], ['win32'], None),
}
for name, (version, cpu, os_, libc) in missing.items():
    key = 'node_modules/' + name
    if key in pk: continue
    entry = {'version': version, 'cpu': cpu, 'license': 'MIT', 'optional': True, 'os': os_}
    if libc: entry['libc'] = libc
    pk[key] = entry
lock['packages'] = dict(sorted(pk.items(), key=lambda kv: (kv[0] != '', kv[0])))
json.dump(lock, open(path, 'w'), indent=2)
open(path, 'a').write('\n')
