#!/usr/bin/env python3
"""Writes the half-precision forms (cl_khr_fp16) of the builtin functions:
one definition for every overload with a half type that Clang's opencl-c.h
declares for the flags the library is built with (read from Clang's own
preprocessor, so the names are exactly those user kernels call).

Every half is exact as a float, so most functions widen their half
arguments to float, call the float form and round the result to half
once (to nearest even). For +, -, *, / and sqrt that single rounding of
the float result is the correctly rounded half result (float has more
than 2 * 11 + 2 bits); for the others the float result is within a float
ulp or so, far below a half ulp. Where a function's result must be exact
in half and rounding it from float could miss, it works on the half's
bits instead (nextafter, select, bitselect, shuffles, copies, loads and
stores), or computes exactly and rounds once (fma, in double; fract,
clamped below 1); isnormal asks for half's normal range. sin, cos, tan,
log, log2, log10 and exp10 call the faster 3.5-ulp float forms. The conversions are gen_conversions.py's; the sub-group
and work-group functions are their families'.

Usage: gen_half.py <clang> <output.cl> <clang -cc1 flags...>
"""
import re
import subprocess
import sys

SKIP = re.compile(r'^(convert_|as_|vload_half|vstore_half|vloada_half|'
                  r'vstorea_half|sub_group_|work_group_|intel_|atomic_)')
TYPE_WORDS = {
    'half', 'float', 'double', 'char', 'uchar', 'short', 'ushort', 'int',
    'uint', 'long', 'ulong', 'size_t', 'ptrdiff_t', 'event_t', 'sampler_t',
    'void', 'bool',
}
QUALIFIERS = {'const', 'volatile', '__global', '__local', '__constant',
              '__private', '__read_only', '__write_only', '__read_write'}
HALF = re.compile(r'^half(\d*)$')
DECL = re.compile(r'^(.*?)\s+((?:__attribute__\(\(\w+\)\)\s*)+)(\w+)\((.*)\);$')


def is_type_word(word):
    base = re.sub(r'\d+$', '', word)
    return (base in TYPE_WORDS or word in QUALIFIERS or word.startswith('image')
            or word.endswith('_t'))


def split_param(param):
    """(type text, is pointer) of one parameter, its name dropped."""
    words = param.replace('*', ' * ').split()
    if len(words) > 1 and words[-1] != '*' and not is_type_word(words[-1]):
        words = words[:-1]
    return ' '.join(words), '*' in words


def value_type(type_text):
    """The value type named in a parameter's type (its last type word)."""
    words = [w for w in type_text.split() if w not in QUALIFIERS and w != '*']
    return words[-1] if words else ''


def width(type_name):
    m = re.search(r'(\d+)$', type_name)
    return m.group(1) if m else ''


def swap_half(type_text, to):
    return re.sub(r'\bhalf(\d*)\b', lambda m: to + m.group(1), type_text)


# Float forms that are good enough for a half result and faster than the
# full-accuracy ones: math_half_native.cl's half_* are SLEEF's 3.5-ulp
# functions (a few float ulp: far below the 2 half ulp allowed, which are
# 2^14 float ulp; half_sin, _cos and _tan hold for |x| <= 2^16, beyond
# every finite half).
FLOAT_FORM = {name: 'half_' + name for name in (
    'sin', 'cos', 'tan', 'log', 'log2', 'log10', 'exp10')}


def via_float(name, ret, params):
    """Widen halves to float, call the float form, round the result."""
    pre, args, post = [], [], []
    for i, (text, pointer) in enumerate(params):
        vt = value_type(text)
        h = HALF.match(vt)
        if pointer and h:
            # An output: the float form writes a temporary, rounded after.
            pre.append('float%s t%d;' % (h.group(1), i))
            args.append('&t%d' % i)
            post.append('*a%d = convert_half%s(t%d);' % (i, h.group(1), i))
        elif h:
            args.append('convert_float%s(a%d)' % (h.group(1), i))
        else:
            args.append('a%d' % i)
    call = '%s(%s)' % (FLOAT_FORM.get(name, name), ', '.join(args))
    rh = HALF.match(ret)
    if name == 'fract':
        # fract is below 1: a float just below 1 must not round up to 1.
        pre.append('float%s r = %s;' % (rh.group(1), call))
        result = ('convert_half%s(isnan(r) ? r : fmin(r, 0x1.ffcp-1f))'
                  % rh.group(1))
    elif rh:
        result = 'convert_half%s(%s)' % (rh.group(1), call)
    elif ret.startswith('short'):
        # Relational vector forms: the float form's -1/0 as shorts.
        result = 'convert_%s(%s)' % (ret, call)
    else:
        result = call
    lines = pre
    if ret == 'void':
        lines.append(call + ';')
        lines.extend(post)
    elif post:
        lines.append('%s r_ = %s;' % (ret, result))
        lines.extend(post)
        lines.append('return r_;')
    else:
        lines.append('return %s;' % result)
    return lines


def on_bits(name, ret, params):
    """Functions that move or pick halves: the same on their bits."""
    types = [t for t, _ in params]
    if name in ('select', 'bitselect'):
        w = width(ret)
        a = ['as_ushort%s(a0)' % w, 'as_ushort%s(a1)' % w]
        a.append('a2' if name == 'select' else 'as_ushort%s(a2)' % w)
        return ['return as_%s(%s(%s));' % (ret, name, ', '.join(a))]
    if name in ('shuffle', 'shuffle2'):
        data = ['as_ushort%s(a%d)' % (width(value_type(types[i])), i)
                for i in range(len(params) - 1)]
        return ['return as_%s(%s(%s, a%d));' % (ret, name, ', '.join(data),
                                                 len(params) - 1)]
    if name.startswith('vload'):
        space = swap_half(types[1], 'ushort')
        return ['return as_%s(%s(a0, (%s)a1));' % (ret, name, space)]
    if name.startswith('vstore'):
        space = swap_half(types[2], 'ushort')
        return ['%s(as_ushort%s(a0), a1, (%s)a2);' % (name, width(value_type(
            types[0])), space)]
    if name.startswith('async_work_group'):
        casts = ['(%s)a%d' % (swap_half(t, 'ushort'), i) if p else 'a%d' % i
                 for i, (t, p) in enumerate(params)]
        return ['return %s(%s);' % (name, ', '.join(casts))]
    if name == 'prefetch':
        return ['prefetch((%s)a0, a1);' % swap_half(types[0], 'ushort')]
    if name == 'nan':
        w = width(ret)
        return ['return as_%s((ushort%s)((ushort%s)0x7e00 | (a0 & '
                '(ushort%s)0x1ff)));' % (ret, w, w, w)]
    if name == 'isnormal':
        # Normal as a half: a float is normal down to 2^-126.
        w = width(ret)
        f = 'convert_float%s(a0)' % w
        if not w:
            return ['return isnormal(%s) && fabs(%s) >= 0x1p-14f;' % (f, f)]
        return ['return convert_%s(isnormal(%s) & (fabs(%s) >= '
                '(float%s)0x1p-14f));' % (ret, f, f, w)]
    if name == 'nextafter':
        return ['return nextafter_half(a0, a1);'] if not width(ret) else [
            '%s r;' % ret,
            'CLMUX_EACH_COMPONENT for (int i = 0; i < %s; i++) '
            'r[i] = nextafter_half(a0[i], a1[i]);' % width(ret),
            'return r;']
    if name == 'fma':
        return ['return fma_half(a0, a1, a2);'] if not width(ret) else [
            '%s r;' % ret,
            'CLMUX_EACH_COMPONENT for (int i = 0; i < %s; i++) '
            'r[i] = fma_half(a0[i], a1[i], a2[i]);' % width(ret),
            'return r;']
    return None


HELPERS = r'''
/* The half after x toward y, on the bits (a float step rounds back). */
static half nextafter_half(half x, half y) {
  if (isnan(x) || isnan(y)) return x + y;
  if (x == y) return y;
  ushort b = as_ushort(x);
  if ((b & 0x7fff) == 0) return as_half((ushort)(as_ushort(y) & 0x8000 | 1));
  bool away = (x < y) == ((b & 0x8000) == 0);
  return as_half((ushort)(away ? b + 1 : b - 1));
}

/* x * y + z in double, then one rounding to half (convert_half's from
 * double is correctly rounded). The double fma is exact whenever the
 * result is a finite half that is not z itself plus less than a half of
 * its ulp (then both roundings give z): the product has 22 bits and a
 * finite result keeps both terms within 53 bits of each other. */
static half fma_half(half x, half y, half z) {
  double exact = fma((double)x, (double)y, (double)z);
  return convert_half(exact);
}
'''


def main(clang, out_path, *flags):
    preprocessed = subprocess.run(
        [clang, '-cc1', '-E'] + list(flags) + ['-x', 'cl', '/dev/null', '-o', '-'],
        check=True, capture_output=True, text=True).stdout
    out = ['/* Generated by gen_half.py; do not edit. */',
           '#include "builtins_internal.h"',
           '#pragma OPENCL EXTENSION cl_khr_fp16 : enable',
           HELPERS]
    seen = set()
    for line in preprocessed.splitlines():
        m = DECL.match(line.strip())
        if not m or not re.search(r'\bhalf\d*\b', line):
            continue
        ret, _, name, param_text = m.groups()
        ret = ret.strip()
        if SKIP.match(name) or ret.startswith('typedef'):
            continue
        params = [split_param(p) for p in param_text.split(',')
                  if p.strip() and p.strip() != 'void']
        key = (name, tuple(t for t, _ in params))
        if key in seen:
            continue
        seen.add(key)
        named = ', '.join('%s a%d' % (t, i) for i, (t, _) in
                          enumerate(params))
        if name.startswith('read_imageh'):
            body = ['return convert_half4(read_imagef(%s));' % ', '.join(
                'a%d' % i for i in range(len(params)))]
        elif name.startswith('write_imageh'):
            args = ['a%d' % i for i in range(len(params))]
            args[-1] = 'convert_float4(a%d)' % (len(params) - 1)
            body = ['write_imagef(%s);' % ', '.join(args)]
        else:
            body = on_bits(name, ret, params) or via_float(name, ret, params)
        out.append('CLMUX_OVL %s %s(%s) {\n  %s\n}' % (ret, name, named,
                                                       '\n  '.join(body)))
    with open(out_path, 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main(*sys.argv[1:])
