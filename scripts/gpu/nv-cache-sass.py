#!/usr/bin/env python3
"""The machine code NVIDIA's Vulkan driver compiled for the lab's kernels (issue 26: no profiler reaches
the H200 through Dawn). The driver keeps compiled pipelines in its shader disk cache
(__GL_SHADER_DISK_CACHE_PATH=DIR: DIR/GLCache/*/*/*.bin). What was found by reading one (driver 580):
the .bin holds one zstd frame per pipeline; each inflates to an 'NVDANVVMNVuc' container whose section
table entry at 0x48 is (type 1, size, offset) of the code: 8 bytes of header, then SM90 instructions,
16 bytes each, which `nvdisasm -b SM90` reads as raw code.

    python3 scripts/gpu/nv-cache-sass.py extract CACHE_DIR_OR_TGZ OUT_DIR   (here: needs the zstd command)
        writes OUT_DIR/code-N.bin, one per pipeline, and prints each one's registers a thread (from the
        container: occupancy is 65536 / (registers · threads) workgroups an SM at most)
    python3 scripts/gpu/nv-cache-sass.py disasm DIR                        (on the device: needs nvdisasm)
        writes DIR/code-N.sass beside each code-N.bin
    python3 scripts/gpu/nv-cache-sass.py summary DIR
        a line per code-N.sass: instruction counts that matter for a subgroup-matrix GEMM, the highest
        register, and local-memory traffic (spills)
"""
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile

ZSTD_MAGIC = b'\x28\xb5\x2f\xfd'
COUNTED = ['HMMA', 'LDSM', 'LDS', 'STS', 'LDG', 'STG', 'BAR', 'LDL', 'STL', 'MOV', 'PRMT', 'SEL', 'BRA', 'ISETP']


def cache_files(folder):
    """The .bin files of a cache folder."""
    return sorted(glob.glob(os.path.join(folder, '**', '*.bin'), recursive=True))


def code_of(container):
    """The raw instructions of one inflated NVuc container (None where the layout is not the one described)."""
    if not container.startswith(b'NVDANVVMNVuc') or len(container) < 0x58:
        return None
    kind, size = struct.unpack_from('<II', container, 0x48)
    offset = struct.unpack_from('<Q', container, 0x50)[0]
    if kind != 1 or offset + size > len(container) or size <= 8:
        return None
    code = container[offset + 8:offset + size]
    return code[:len(code) // 16 * 16]


def registers_of(container):
    """(registers a thread is given, the driver's cap on them): the two u32 just before the code section.
    Checked against the disassembly of 16 pipelines (driver 580): the first is always the highest register
    named + 3. The cap is 255, or 65536 / threads where that is less (128 at 512 threads): the driver takes
    what it likes up to it, so a workgroup's threads, not the kernel, set how few it gets."""
    offset = struct.unpack_from('<Q', container, 0x50)[0]
    regs, cap = struct.unpack_from('<II', container, offset - 8)
    return (regs, cap) if 0 < regs <= cap <= 255 else None


def extract(src, out_dir):
    """src: a cache folder, or a .tgz of one (unpacked to a temporary folder, removed after)."""
    if os.path.isfile(src):
        with tempfile.TemporaryDirectory() as tmp:
            with tarfile.open(src) as tar:
                tar.extractall(tmp)
            return extract(tmp, out_dir)
    os.makedirs(out_dir, exist_ok=True)
    n = 0
    for path in cache_files(src):
        data = open(path, 'rb').read()
        starts = [m.start() for m in re.finditer(re.escape(ZSTD_MAGIC), data)]
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else len(data)
            # zstd writes what it inflated and complains about the next frame's header bytes after it.
            body = subprocess.run(['zstd', '-d', '-c'], input=data[start:end], capture_output=True).stdout
            code = code_of(body)
            if code is None:
                continue
            n += 1
            with open(os.path.join(out_dir, f'code-{n}.bin'), 'wb') as fh:
                fh.write(code)
            regs = registers_of(body)
            said = f'{regs[0]} registers a thread (cap {regs[1]})' if regs else 'registers unknown'
            print(f'code-{n}.bin: {len(code) // 16} instructions, {said} (frame at {start} of {os.path.basename(path)})')
    if not n:
        print('no pipeline code found: the cache layout is not the one this script knows')


def disasm(directory):
    nvdisasm = shutil.which('nvdisasm') or '/usr/local/cuda/bin/nvdisasm'
    for path in sorted(glob.glob(os.path.join(directory, 'code-*.bin'))):
        r = subprocess.run([nvdisasm, '-b', 'SM90', path], capture_output=True, text=True)
        with open(path[:-4] + '.sass', 'w') as fh:
            fh.write(r.stdout if r.returncode == 0 else r.stderr)


def summary(directory):
    for path in sorted(glob.glob(os.path.join(directory, 'code-*.sass')), key=lambda p: int(re.search(r'(\d+)\.sass$', p).group(1))):
        sass = open(path).read()
        ops = [m.group(1) for m in re.finditer(r'^\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+(?:\.[A-Z0-9_]+)*)', sass, re.M)]
        counts = {op: sum(1 for o in ops if o.split('.')[0] == op) for op in COUNTED}
        forms = sorted({o for o in ops if o.split('.')[0] in ('STS', 'LDG', 'LDSM', 'HMMA')})
        regs = [int(r) for r in re.findall(r'\bR(\d+)\b', sass)]
        print(f'{os.path.basename(path)}: {len(ops)} instructions, highest register R{max(regs) if regs else "?"}; '
              + ' '.join(f'{op} {c}' for op, c in counts.items() if c) + f'; forms {", ".join(forms)}')


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('extract', 'disasm', 'summary') or (sys.argv[1] == 'extract' and len(sys.argv) < 4):
        print(__doc__)
        sys.exit(2)
    {'extract': lambda: extract(sys.argv[2], sys.argv[3]), 'disasm': lambda: disasm(sys.argv[2]), 'summary': lambda: summary(sys.argv[2])}[sys.argv[1]]()


if __name__ == '__main__':
    main()
