#!/usr/bin/env python3
"""Writes bitcode files as C byte arrays (build step).

Usage: embed_bitcode.py OUT.c NAME=FILE.bc...; each NAME gets
cc_builtins_NAME_data[] and cc_builtins_NAME_length."""
import sys


def array(name, bitcode_path):
    with open(bitcode_path, 'rb') as f:
        data = f.read()
    lines = []
    for start in range(0, len(data), 24):
        chunk = data[start:start + 24]
        lines.append(''.join('%d,' % byte for byte in chunk))
    symbol = 'cc_builtins_%s' % name
    # The bitcode reader wants 4-byte aligned input.
    return ('/* From %s. */\n' % bitcode_path +
            'extern const uint8_t %s_data[];\n' % symbol +
            'extern const size_t %s_length;\n' % symbol +
            '__attribute__((aligned(16))) const uint8_t %s_data[] = {\n'
            % symbol + '\n'.join(lines) + '\n};\n' +
            'const size_t %s_length = %d;\n' % (symbol, len(data)))


def main(c_path, parts):
    with open(c_path, 'w') as f:
        f.write('/* Generated; do not edit. */\n')
        f.write('#include <stddef.h>\n#include <stdint.h>\n')
        for part in parts:
            name, path = part.split('=', 1)
            f.write(array(name, path))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2:])
