#!/usr/bin/env python3
"""Writes the C11-style atomic functions of OpenCL C 3.0 (section 6.15.12)
for a device without the generic address space: one definition for every
overload with __global or __local objects that Clang declares for OpenCL
C 3.0, read from Clang's own opencl-c.h, so the library defines exactly
the names user kernels call.

Every operation is one of Clang's __atomic builtins with the order asked
for (kernels pass constants; after inlining the order is fixed). Scopes
are ignored: the CPU's memory is coherent for every scope. float and
double objects are handled through integers of their size, so a compare
and exchange compares representations, as C11 does.

With --float it writes cl_ext_float_atomics instead: fetch_add, _sub,
_min and _max of float, double and half objects, and the loads, stores
and exchanges of half ones (a part built with cl_khr_fp16). x86 has no
floating-point read-modify-write, so each is a compare-and-exchange loop
on the value's bits; min and max are fmin and fmax (a NaN operand leaves
the other). The names the SPIR-V translator gives the float operations
(atomic_add, atomic_min and atomic_max on float and double pointers, which
no OpenCL C declares) call these.

Usage: gen_c11_atomics.py [--float] <opencl-c.h> <output.cl>
"""
import re
import sys

PROTOTYPE = re.compile(
    r'^(\w+) __ovld (atomic_\w+)\((volatile (__global|__local) '
    r'(atomic_\w+) \*[^)]*)\);')

# The value type of each atomic type, and the integer type that holds it.
VALUE = {
    'atomic_int': ('int', 'int'), 'atomic_uint': ('uint', 'uint'),
    'atomic_long': ('long', 'long'), 'atomic_ulong': ('ulong', 'ulong'),
    'atomic_float': ('float', 'int'), 'atomic_double': ('double', 'long'),
    'atomic_intptr_t': ('intptr_t', 'intptr_t'),
    'atomic_uintptr_t': ('uintptr_t', 'uintptr_t'),
    'atomic_size_t': ('size_t', 'size_t'),
    'atomic_ptrdiff_t': ('ptrdiff_t', 'ptrdiff_t'),
    'atomic_flag': ('int', 'int'),
    'atomic_half': ('half', 'ushort'),
}
BITS_TO = {'float': 'as_float', 'double': 'as_double', 'half': 'as_half'}
BITS_FROM = {'float': 'as_int', 'double': 'as_long', 'half': 'as_ushort'}
FLOATS = ('atomic_float', 'atomic_double', 'atomic_half')
FLOAT_OP = {'add': '{old} + a1', 'sub': '{old} - a1', 'min': 'fmin({old}, a1)',
            'max': 'fmax({old}, a1)'}
FETCH = {'add', 'sub', 'or', 'xor', 'and', 'min', 'max'}
TRANSLATOR_NAMES = {'atomic_fetch_add': 'atomic_add',
                    'atomic_fetch_min': 'atomic_min',
                    'atomic_fetch_max': 'atomic_max'}
# Typedefs that name the same type on a 64-bit device: an overload over
# one is the overload over the other.
SAME = {'uintptr_t': 'ulong', 'intptr_t': 'long', 'size_t': 'ulong',
        'ptrdiff_t': 'long', 'atomic_uintptr_t': 'atomic_ulong',
        'atomic_intptr_t': 'atomic_long', 'atomic_size_t': 'atomic_ulong',
        'atomic_ptrdiff_t': 'atomic_long'}


def canonical(param):
    return ' '.join(SAME.get(word, word) for word in param.split())


def split_params(text):
    return [p.strip() for p in text.split(',')]


def param_names(params):
    names = []
    for i, p in enumerate(params):
        names.append(('p', 'a1', 'a2', 'a3', 'a4', 'a5')[i])
    return names


def body(name, ret, space, atomic, params):
    value, bits = VALUE[atomic]
    obj = f'(volatile {space} {bits} *)p'
    to_bits = BITS_FROM.get(value, '')
    from_bits = BITS_TO.get(value, '')
    base = name[len('atomic_'):]
    explicit = base.endswith('_explicit')
    if explicit:
        base = base[:-len('_explicit')]
    n = len(params)

    def order(index):
        return f'a{index}' if explicit and n > index else '__ATOMIC_SEQ_CST'

    def wrap(expr):
        return f'{from_bits}({expr})' if from_bits else expr

    if base == 'init':
        return f'__atomic_store_n({obj}, {to_bits}(a1), __ATOMIC_RELAXED);'
    if base == 'store':
        return f'__atomic_store_n({obj}, {to_bits}(a1), {order(2)});'
    if base == 'load':
        return f'return {wrap(f"__atomic_load_n({obj}, {order(1)})")};'
    if base == 'exchange':
        return ('return ' +
                wrap(f'__atomic_exchange_n({obj}, {to_bits}(a1), {order(2)})')
                + ';')
    if base in ('compare_exchange_strong', 'compare_exchange_weak'):
        weak = 'true' if base.endswith('weak') else 'false'
        success = order(3)
        failure = f'a4' if explicit and n > 4 else '__ATOMIC_SEQ_CST'
        # The expected value may live in any address space: a private copy.
        return (f'{bits} expected = {to_bits}(*a1);\n'
                f'  bool done = __atomic_compare_exchange_n({obj}, &expected, '
                f'{to_bits}(a2), {weak}, {success}, {failure});\n'
                f'  *a1 = {wrap("expected")};\n'
                f'  return done;')
    if base.startswith('fetch_') and atomic in FLOATS:
        # Relaxed reads; the exchange has the order asked for (a failed one
        # only retries).
        new_value = FLOAT_OP[base[6:]].format(old=f'{from_bits}(old)')
        return (f'{bits} old = __atomic_load_n({obj}, __ATOMIC_RELAXED);\n'
                f'  while (!__atomic_compare_exchange_n({obj}, &old, '
                f'{to_bits}(({value})({new_value})), true, {order(2)}, '
                f'__ATOMIC_RELAXED)) {{\n  }}\n'
                f'  return {from_bits}(old);')
    if base.startswith('fetch_') and base[6:] in FETCH:
        op = base[6:]
        return (f'return __atomic_fetch_{op}({obj}, ({bits})a1, '
                f'{order(2)});')
    if base == 'flag_test_and_set':
        return f'return __atomic_exchange_n({obj}, 1, {order(1)}) != 0;'
    if base == 'flag_clear':
        return f'__atomic_store_n({obj}, 0, {order(1)});'
    raise SystemExit(f'gen_c11_atomics.py: no body for {name}')


def declarations(lines):
    """The header's lines, a declaration that spans several joined into
    one, spaces collapsed."""
    pending = ''
    for line in lines:
        text = re.sub(r' +', ' ', line.strip())
        if pending:
            pending += ' ' + text
            if pending.endswith(';'):
                yield pending.replace('( ', '(')
                pending = ''
        elif '__ovld' in text and not text.endswith(';') and '(' in text:
            pending = text
        else:
            yield text


def wanted(name, atomic, floats):
    """Whether this run defines the overload: the float part has the float
    arithmetic and every half overload, the main part the rest."""
    float_part = atomic == 'atomic_half' or (
        atomic in FLOATS and name.startswith('atomic_fetch_'))
    return float_part == floats


def main():
    floats = sys.argv[1] == '--float'
    header, output = sys.argv[1 + floats], sys.argv[2 + floats]
    seen = set()
    definitions = []
    with open(header) as f:
        for line in declarations(f):
            m = PROTOTYPE.match(line)
            if not m:
                continue
            ret, name, param_text, space, atomic = m.groups()
            if not wanted(name, atomic, floats):
                continue
            if atomic not in VALUE:
                raise SystemExit(f'gen_c11_atomics.py: unknown {atomic}')
            params = split_params(param_text)
            key = (name, tuple(canonical(p) for p in params))
            if key in seen:
                continue
            seen.add(key)
            names = param_names(params)
            typed = ', '.join(f'{p} {n}' for p, n in zip(params, names))
            definitions.append(
                f'{ret} __attribute__((overloadable)) {name}({typed}) {{\n'
                f'  {body(name, ret, space, atomic, params)}\n}}\n')
            if (atomic in ('atomic_float', 'atomic_double') and
                    name in TRANSLATOR_NAMES):
                # What llvm-spirv-15 makes of OpAtomicFAddEXT, OpAtomicFMinEXT
                # and OpAtomicFMaxEXT: the 1.x names on plain pointers.
                value = VALUE[atomic][0]
                definitions.append(
                    f'{value} __attribute__((overloadable)) '
                    f'{TRANSLATOR_NAMES[name]}(volatile {space} {value} *p, '
                    f'{value} a1) {{\n'
                    f'  return {name}((volatile {space} {atomic} *)p, a1);\n'
                    f'}}\n')
            if atomic == 'atomic_half' and name.startswith('atomic_store'):
                # Clang 19's builtin declarations (-fdeclare-opencl-builtins)
                # give half stores an atomic_half value: that overload too.
                odd = ', '.join(f'{"atomic_half" if i == 1 else p} {n}'
                                for i, (p, n) in enumerate(zip(params, names)))
                definitions.append(
                    f'{ret} __attribute__((overloadable)) {name}({odd}) {{\n'
                    f'  half value = a1;\n  ' +
                    body(name, ret, space, atomic, params).replace(
                        '(a1)', '(value)') + '\n}\n')
    if len(definitions) < (40 if floats else 100):
        raise SystemExit('gen_c11_atomics.py: too few prototypes in ' + header)
    with open(output, 'w') as out:
        out.write('/* Generated by gen_c11_atomics.py from ' + header +
                  ': do not edit. */\n')
        if floats:
            out.write('#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n')
        out.write('\n'.join(definitions))
        if floats:
            return
        # Not a pointer function: written here. A relaxed fence orders
        # nothing.
        out.write('\nvoid __attribute__((overloadable)) atomic_work_item_fence('
                  'cl_mem_fence_flags flags, memory_order order, '
                  'memory_scope scope) {\n'
                  '  if (order != memory_order_relaxed) '
                  '__atomic_thread_fence(order);\n}\n')


main()
