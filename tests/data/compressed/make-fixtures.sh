#!/usr/bin/env bash
# Writes the compressed-file fixtures of tests/compressed_file_test.cpp from
# other fixtures of this project (see SOURCES.md): run from the project root,
# `tests/data/compressed/make-fixtures.sh`. Needs gzip, xz, bzip2, zstd, lz4
# (Debian packages of the same names) and compress (Debian's ncompress). gzip -n: no name or time stamp in the
# header, so the bytes are the same every time.
set -euo pipefail
out=tests/data/compressed
rm -rf "$out/per-run" "$out/extrap" "$out/bad" "$out/cube" "$out/archives" "$out/single" "$out/paraver"
mkdir -p "$out/per-run" "$out/extrap" "$out/bad"

# The 16-thread BT-MZ runs of layouts/per-run, each report and stdout compressed
# with another tool; the info files stay as they are.
i=0
for run in 2012_07_06_13_36_28_629332850 2012_07_06_13_41_14_302617664 2012_07_06_13_43_45_760200592 \
           2012_07_06_13_45_12_048742023 2012_07_06_13_46_03_934105437; do
  cp -r "tests/data/layouts/per-run/$run" "$out/per-run/$run"
  report=$(ls "$out/per-run/$run"/*.mpiP)
  case $i in
    0) gzip -n -9 "$report" ;;
    1) xz -9 "$report" ;;
    2) bzip2 -9 "$report" ;;
    3) zstd -q -19 --rm "$report" ;;
    4) lz4 -q -9 "$report" "$report.lz4" && rm "$report" ;;
  esac
  # The stdout: gzip as two members (pigz and `cat a.gz b.gz` write such files),
  # then zero padding (tape blocks), which gzip(1) skips.
  stdout="$out/per-run/$run/out.dat"
  { head -c 1000 "$stdout" | gzip -n; tail -c +1001 "$stdout" | gzip -n; } > "$stdout.gz"
  if [ $i -eq 2 ]; then head -c 512 /dev/zero >> "$stdout.gz"; fi
  rm "$stdout"
  i=$((i + 1))
done

# compress(1)'s LZW (.Z), the Unix compressor before gzip.
mkdir -p "$out/single"
compress -c tests/data/layouts/per-run/2012_07_06_13_36_28_629332850/bt-mz.C.1.1.29898.1.mpiP \
  > "$out/single/bt-mz.C.1.1.29898.1.mpiP.Z"

# A Paraver trace (pypop's EPOCH at P = 1, gzip as it ships) unpacked and packed by the other
# compressors, for the reader that streams it from disk; its .pcf and .row stay in paraver/epoch.
mkdir -p "$out/paraver"
zcat tests/data/paraver/epoch/epoch_1proc.prv.gz | xz -9 > "$out/paraver/epoch_1proc.prv.xz"
zcat tests/data/paraver/epoch/epoch_1proc.prv.gz | zstd -q -19 > "$out/paraver/epoch_1proc.prv.zst"
zcat tests/data/paraver/epoch/epoch_1proc.prv.gz | bzip2 -9 > "$out/paraver/epoch_1proc.prv.bz2"

# An Extra-P JSON Lines experiment: its layout comes from the name under .gz.
gzip -n -9 -c tests/data/extrap/jsonl_example.jsonl > "$out/extrap/jsonl_example.jsonl.gz"

# Damaged: each is one line naming the file, never a record.
report=tests/data/layouts/per-run/2012_07_06_13_36_28_629332850/bt-mz.C.1.1.29898.1.mpiP
gzip -n -9 -c "$report" > /tmp/qnm-fixture.gz
head -c $(( $(stat -c %s /tmp/qnm-fixture.gz) - 100 )) /tmp/qnm-fixture.gz > "$out/bad/cut-short.mpiP.gz"
python3 - "$out/bad/bit-flip.mpiP.gz" <<'PY'
import sys
data = bytearray(open('/tmp/qnm-fixture.gz', 'rb').read())
data[-8] ^= 0x01  # the trailer's CRC-32: the data inflate cleanly, only the check says they are not the same
open(sys.argv[1], 'wb').write(data)
PY
{ cat /tmp/qnm-fixture.gz; echo "appended by mistake"; } > "$out/bad/trailing-text.mpiP.gz"
xz -9 -c "$report" | head -c 600 > "$out/bad/cut-short.mpiP.xz"
rm /tmp/qnm-fixture.gz
# A compressed OTF2 anchor: OTF2 reads an unpacked archive only.
gzip -n -c tests/data/otf2/synthetic-patterns-4rank/traces.otf2 > "$out/bad/traces.otf2.gz" 2>/dev/null ||
  gzip -n -c "$(find tests/data/otf2 -name '*.otf2' | sort | head -1)" > "$out/bad/traces.otf2.gz"

# A CUBE4 profile (a tar archive) gzip-compressed as a whole: it stays the CUBE
# reader's, which unpacks the tar.gz member by member.
mkdir -p "$out/cube/kripke.p8.d2.g32.r1"
gzip -n -9 -c tests/data/cube/kripke.p8.d2.g32.r1/profile.cubex > "$out/cube/kripke.p8.d2.g32.r1/profile.cubex.gz"

# Archives of runs (ingest/run_archive.h), written reproducibly (names sorted,
# time stamps and owners zeroed): the whole LLNL per-run campaign as a tar.gz,
# the compressed campaign above as a plain tar (compressed members), and a tar
# holding a CUBE4 profile, a trace and an archive inside the archive.
mkdir -p "$out/archives"
tar_opts=(--sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=ustar)
tar "${tar_opts[@]}" -C tests/data/layouts -c per-run | gzip -n -9 > "$out/archives/campaign.tar.gz"
tar "${tar_opts[@]}" -C "$out" -cf "$out/archives/compressed-members.tar" per-run
tar "${tar_opts[@]}" -cf "$out/archives/mixed.tar" -C tests/data/cube kripke.p8.d2.g32.r1 \
  -C ../otf2 pipit-ping-pong-otf2 -C "../../../$out/archives" campaign.tar.gz

# Zip archives of runs, written by Python's zipfile with every time stamp at
# 1980-01-01 (zip's epoch) and sorted names, so the bytes are the same every
# time: the campaign (deflate), a trace and a CUBE4 profile; a member flagged
# encrypted (general purpose bit 0, local and central headers; the bytes are
# left plain), and 64 MiB of zeros that deflate to ~64 KB (a zip bomb).
python3 - "$out/archives" <<'PY'
import os, sys, zipfile
out = sys.argv[1]
def add_tree(z, root, top):
    for folder, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            info = zipfile.ZipInfo(os.path.relpath(path, root), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, open(path, 'rb').read(), compresslevel=9)
with zipfile.ZipFile(os.path.join(out, 'campaign.zip'), 'w') as z:
    add_tree(z, 'tests/data/layouts', 'per-run')
with zipfile.ZipFile(os.path.join(out, 'trace-and-profile.zip'), 'w') as z:
    add_tree(z, 'tests/data/otf2', 'pipit-ping-pong-otf2')
    add_tree(z, 'tests/data/cube', 'kripke.p8.d2.g32.r1')
os.makedirs(os.path.join(out, 'bad'), exist_ok=True)
report = 'tests/data/layouts/per-run/2012_07_06_13_36_28_629332850/bt-mz.C.1.1.29898.1.mpiP'
encrypted = os.path.join(out, 'bad', 'encrypted.zip')
with zipfile.ZipFile(encrypted, 'w') as z:
    info = zipfile.ZipInfo(os.path.basename(report), date_time=(1980, 1, 1, 0, 0, 0))
    z.writestr(info, open(report, 'rb').read())
data = bytearray(open(encrypted, 'rb').read())
for signature, flag_at in ((b'PK\x03\x04', 6), (b'PK\x01\x02', 8)):
    at = data.find(signature)
    data[at + flag_at] |= 0x01
open(encrypted, 'wb').write(data)
with zipfile.ZipFile(os.path.join(out, 'bad', 'bomb.zip'), 'w') as z:
    info = zipfile.ZipInfo('zeros.mpiP', date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, bytes(64 << 20), compresslevel=9)
PY
