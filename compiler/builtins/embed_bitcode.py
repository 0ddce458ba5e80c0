#!/usr/bin/env python3
"""Writes the builtin library's bitcode as a C byte array (build step)."""
import sys


def main(bitcode_path, c_path):
    with open(bitcode_path, 'rb') as f:
        data = f.read()
    lines = []
    for start in range(0, len(data), 24):
        chunk = data[start:start + 24]
        lines.append(''.join('%d,' % byte for byte in chunk))
    with open(c_path, 'w') as f:
        f.write('/* Generated from %s; do not edit. */\n' % bitcode_path)
        f.write('#include <stddef.h>\n#include <stdint.h>\n')
        f.write('extern const uint8_t cc_builtins_bitcode_data[];\n')
        f.write('extern const size_t cc_builtins_bitcode_length;\n')
        # The bitcode reader wants 4-byte aligned input.
        f.write('__attribute__((aligned(16))) '
                'const uint8_t cc_builtins_bitcode_data[] = {\n')
        f.write('\n'.join(lines))
        f.write('\n};\nconst size_t cc_builtins_bitcode_length = %d;\n'
                % len(data))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
