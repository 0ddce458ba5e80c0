#!/usr/bin/env python3
"""Writes the OpenCL C source of every convert_<type>[_sat][_<rounding>]
function (OpenCL 1.2 section 6.2.3) between char ... ulong, float and
double (the double ones only where the library is built with cl_khr_fp64),
and with --half those from and to half (cl_khr_fp16),
for scalars and vectors of 2, 3, 4, 8 and 16 (a build step; the output is
not committed).

Scalar forms carry the semantics: integer targets truncate (or saturate,
with NaN -> 0); float sources round to an integer in the requested mode
first (the default is toward zero); integer-to-float is to nearest even by
default and directed otherwise, exactly. Vector forms of the plain
conversions are one __builtin_convertvector (C semantics, i.e. the default
modes); the others apply the scalar form per component."""
import sys

# name: (is_signed, bits, min, max) for the integer types
INTEGERS = {
    'char': (True, 8, -2**7, 2**7 - 1),
    'uchar': (False, 8, 0, 2**8 - 1),
    'short': (True, 16, -2**15, 2**15 - 1),
    'ushort': (False, 16, 0, 2**16 - 1),
    'int': (True, 32, -2**31, 2**31 - 1),
    'uint': (False, 32, 0, 2**32 - 1),
    'long': (True, 64, -2**63, 2**63 - 1),
    'ulong': (False, 64, 0, 2**64 - 1),
}
FLOATS = {'float': 24, 'double': 53}  # significand bits
TYPES = list(INTEGERS) + list(FLOATS)
WIDTHS = ['', '2', '3', '4', '8', '16']
ROUNDINGS = ['', '_rte', '_rtz', '_rtp', '_rtn']


def literal(value, type_name):
    """An integer constant of the given type, valid OpenCL C."""
    if type_name in ('long', 'ulong'):
        if value == -2**63:
            return '((long)(-9223372036854775807L - 1))'
        return '((%s)%d%s)' % (type_name, value, 'UL' if value >= 0 else 'L')
    if type_name == 'int' and value == -2**31:
        return '((int)(-2147483647 - 1))'
    return '((%s)%d%s)' % (type_name, value, 'U' if value >= 0 else '')


def int_to_int(dst, src, sat):
    if not sat:
        return 'return (%s)x;' % dst
    _, _, src_min, src_max = INTEGERS[src]
    _, _, dst_min, dst_max = INTEGERS[dst]
    # Bounds are written in the source type, where they lie whenever the
    # clamp is needed, so no mixed signed/unsigned comparison arises.
    expr = '(%s)x' % dst
    if src_max > dst_max:
        expr = 'x > %s ? %s : %s' % (literal(dst_max, src), literal(dst_max, dst), expr)
    if src_min < dst_min:
        expr = 'x < %s ? %s : (%s)' % (literal(dst_min, src), literal(dst_min, dst), expr)
    return 'return %s;' % expr


ROUND_FLOAT = {'': '__builtin_trunc', '_rtz': '__builtin_trunc',
               '_rte': '__builtin_rint', '_rtp': '__builtin_ceil',
               '_rtn': '__builtin_floor'}


def float_literal(value, suffix):
    return '%d.0%s' % (value, suffix)


def float_to_int(dst, src, sat, rounding):
    suffix = 'f' if src == 'float' else ''
    rounded = '%s%s(x)' % (ROUND_FLOAT[rounding], suffix)
    signed, bits, dst_min, dst_max = INTEGERS[dst]
    if not sat:
        # Out of range is undefined; narrow types go through int so that
        # in-int-range values wrap like an integer conversion would.
        if bits < 32:
            return 'return (%s)(int)%s;' % (dst, rounded)
        return 'return (%s)%s;' % (dst, rounded)
    if bits < 32:
        # Narrow targets: NaN to 0, then a clamp to the target's range, whose
        # ends are exact in float: selects and min/max, no branches, so a
        # kernel converting vectors of these stays one vectorized loop.
        return ('%s r = %s;\n'
                '  r = r != r ? 0.0%s : r;\n'
                '  return (%s)(int)__builtin_fmin%s(__builtin_fmax%s(r, %s), '
                '%s);' % (src, rounded, suffix, dst, suffix, suffix,
                          float_literal(dst_min, suffix),
                          float_literal(dst_max, suffix)))
    # dst_max + 1 and dst_min are powers of two: exact in float and double.
    return ('%s r = %s;\n'
            '  if (r != r) return 0;\n'
            '  if (r >= 0x1p%d%s) return %s;\n'
            '  if (r < %s) return %s;\n'
            '  return (%s)r;' % (src, rounded, bits - 1 if signed else bits,
                                 suffix, literal(dst_max, dst),
                                 ('-0x1p%d%s' % (bits - 1, suffix)) if signed
                                 else '0.0' + suffix,
                                 literal(dst_min, dst), dst))


def int_to_float(dst, src, rounding):
    signed, bits, _, _ = INTEGERS[src]
    precision = FLOATS[dst]
    if bits <= precision or rounding in ('', '_rte'):
        return 'return (%s)x;' % dst  # exact, or C's round to nearest even
    # Directed: keep the top `precision` significant bits of the magnitude
    # (exact in dst), then step one unit up if the mode rounds the
    # magnitude away from zero and bits were dropped; that sum is exact.
    negative = 'x < 0' if signed else 'false'
    magnitude = '(x < 0 ? -(ulong)x : (ulong)x)' if signed else '(ulong)x'
    away = {'_rtz': 'false', '_rtp': '!negative', '_rtn': 'negative'}[rounding]
    return ('bool negative = %s;\n'
            '  ulong m = %s;\n'
            '  int length = m ? 64 - (int)__builtin_clzl(m) : 0;\n'
            '  int drop = length > %d ? length - %d : 0;\n'
            '  ulong kept = (m >> drop) << drop;\n'
            '  %s f = (%s)kept;\n'
            '  if (kept != m && (%s)) f += (%s)(1UL << drop);\n'
            '  return negative ? -f : f;'
            % (negative, magnitude, precision, precision, dst, dst, away, dst))


def double_to_float(rounding):
    if rounding in ('', '_rte'):
        return 'return (float)x;'
    # Round to nearest, then one step (on the bits) if that went the wrong
    # way: toward zero for _rtz, up for _rtp, down for _rtn. A step from an
    # infinity reached by overflow lands on the largest finite float.
    check = {'_rtz': '__builtin_fabs((double)f) > __builtin_fabs(x)',
             '_rtp': '(double)f < x',
             '_rtn': '(double)f > x'}[rounding]
    step = {'_rtz': '-1', '_rtp': '(b >> 31) ? -1 : 1',
            '_rtn': '(b >> 31) ? 1 : -1'}[rounding]
    return ('float f = (float)x;\n'
            '  uint b = as_uint(f);\n'
            '  if (%s) b += (uint)(%s);\n'
            '  return as_float(b);' % (check, step))


def scalar_body(dst, src, sat, rounding):
    if dst in FLOATS:
        if src == dst:
            return 'return x;'
        if src == 'float':
            return 'return (double)x;'  # exact
        if src == 'double':
            return double_to_float(rounding)
        return int_to_float(dst, src, rounding)
    if src in FLOATS:
        return float_to_int(dst, src, sat, rounding)
    return int_to_int(dst, src, sat)


def float_to_half(rounding):
    if rounding in ('', '_rte'):
        return 'return (half)x;'
    # As double_to_float, on a half's 16 bits.
    check = {'_rtz': '__builtin_fabsf((float)h) > __builtin_fabsf(x)',
             '_rtp': '(float)h < x',
             '_rtn': '(float)h > x'}[rounding]
    step = {'_rtz': '-1', '_rtp': '(b >> 15) ? -1 : 1',
            '_rtn': '(b >> 15) ? 1 : -1'}[rounding]
    return ('half h = (half)x;\n'
            '  ushort b = as_ushort(h);\n'
            '  if (%s) b += (ushort)(%s);\n'
            '  return as_half(b);' % (check, step))


def half_body(dst, src, sat, rounding):
    """Conversions from or to half (cl_khr_fp16). A half widens exactly to
    float, so conversions from half are those from float. To half: from
    float, rounded once (directed modes step on the bits); from double,
    rounded to float to odd first (the lost bits kept as a sticky last
    bit, so the second rounding is the correct one); from integers, through
    float in the same mode (a directed rounding twice is the rounding
    once, and an integer float rounds to nearest differs from its exact
    value only past 2^24, far beyond half's range)."""
    if src == 'half':
        if dst == 'half':
            return 'return x;'
        if dst == 'double':
            return 'return (double)x;'
        return 'return convert_%s%s%s((float)x);' % (dst, sat, rounding)
    if src == 'float':
        return float_to_half(rounding)
    mode = rounding or '_rte'
    if src == 'double' and mode == '_rte':
        return ('float f = convert_float_rtz(x);\n'
                '  if ((double)f != x && f == f && !isinf(f))\n'
                '    f = as_float(as_uint(f) | 1u);\n'
                '  return convert_half_rte(f);')
    return 'return convert_half%s(convert_float%s(x));' % (mode, rounding)


def half_functions(dst, src):
    sats = [''] if dst in ('half', 'float', 'double') else ['', '_sat']
    for sat in sats:
        for rounding in ROUNDINGS:
            for width in WIDTHS:
                name = 'convert_%s%s%s%s' % (dst, width, sat, rounding)
                d, s = dst + width, src + width
                if not width:
                    body = half_body(dst, src, sat, rounding)
                elif (sat == '' and rounding == '' and
                      {dst, src} <= {'half', 'float'}):
                    body = 'return __builtin_convertvector(x, %s);' % d
                else:
                    body = ('%s r;\n  CLMUX_EACH_COMPONENT for (int i = 0; i < %s; i++) '
                            'r[i] = convert_%s%s%s(x[i]);\n  return r;'
                            % (d, width, dst, sat, rounding))
                yield 'OVL %s %s(%s x) {\n  %s\n}' % (d, name, s, body)


def functions(dst, src):
    sats = [''] if dst in FLOATS else ['', '_sat']
    for sat in sats:
        for rounding in ROUNDINGS:
            for width in WIDTHS:
                name = 'convert_%s%s%s%s' % (dst, width, sat, rounding)
                d, s = dst + width, src + width
                if not width:
                    body = scalar_body(dst, src, sat, rounding)
                elif sat == '' and rounding == '':
                    body = 'return __builtin_convertvector(x, %s);' % d
                else:
                    body = ('%s r;\n  CLMUX_EACH_COMPONENT for (int i = 0; i < %s; i++) '
                            'r[i] = convert_%s%s%s(x[i]);\n  return r;'
                            % (d, width, dst, sat, rounding))
                yield 'OVL %s %s(%s x) {\n  %s\n}' % (d, name, s, body)


def main(out_path, half=False):
    out = ['/* Generated by gen_conversions.py; do not edit. */',
           '#include "builtins_internal.h"',
           '#define OVL __attribute__((overloadable))', '']
    if half:
        out.append('#pragma OPENCL EXTENSION cl_khr_fp16 : enable')
        for other in TYPES + ['half']:
            out.extend(half_functions('half', other))
            if other != 'half':
                out.extend(half_functions(other, 'half'))
        with open(out_path, 'w') as f:
            f.write('\n'.join(out) + '\n')
        return
    with_double = []
    for dst in TYPES:
        for src in TYPES:
            target = with_double if 'double' in (dst, src) else out
            target.extend(functions(dst, src))
    out.append('#ifdef cl_khr_fp64')
    out.append('#pragma OPENCL EXTENSION cl_khr_fp64 : enable')
    out.extend(with_double)
    out.append('#endif')
    with open(out_path, 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    # --half: only the conversions from and to half (cl_khr_fp16).
    main(sys.argv[-1], '--half' in sys.argv[1:-1])
