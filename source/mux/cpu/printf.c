/* clmux CPU target: printf from kernels (OpenCL 1.2 §6.12.13).
 *
 * Kernels append records (layout in include/clmux/cpu_abi/printf_record.h)
 * to the running thread's buffer; after the work-group returns, its
 * records are formatted here in work-item order and written to stdout.
 * Each conversion is handed to the host's own printf with the same flags,
 * width and precision, so scalar output matches glibc byte for byte; a
 * vector conversion (%v4hld) prints its elements that way, separated by
 * commas. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* ---- Records --------------------------------------------------------------*/

/* Initial-exec: a fixed offset from the thread pointer, no __tls_get_addr
 * per work-group call; 16 bytes fit glibc's static TLS reserve for
 * libraries opened later (the ICD loader dlopens us). */
static _Thread_local cpu_printf_buffer thread_buffer
    __attribute__((tls_model("initial-exec")));
static pthread_once_t buffer_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t buffer_key;
static bool buffer_key_ready;

static void buffer_release(void *pointer) {
  cpu_printf_buffer *buffer = pointer;
  free(buffer->data);
  memset(buffer, 0, sizeof *buffer);
}

static void buffer_key_create(void) {
  buffer_key_ready = pthread_key_create(&buffer_key, buffer_release) == 0;
}

static uint32_t round_up8(uint32_t value) { return (value + 7u) & ~7u; }

cpu_printf_buffer *cpu_printf_thread_buffer(void) { return &thread_buffer; }

/* Makes room for `needed` bytes in all, growing geometrically up to the
 * work-group's limit. */
static bool buffer_reserve(cpu_printf_buffer *buffer, uint32_t needed) {
  if (needed <= buffer->capacity) return true;
  uint32_t capacity = buffer->capacity ? buffer->capacity : 4096;
  while (capacity < needed) capacity *= 2;
  if (capacity > CPU_PRINTF_BUFFER_SIZE) capacity = CPU_PRINTF_BUFFER_SIZE;
  uint8_t *data = realloc(buffer->data, capacity);
  if (!data) return false;
  if (!buffer->data) {
    /* First growth on this thread: free the memory when it exits. */
    pthread_once(&buffer_key_once, buffer_key_create);
    if (buffer_key_ready) pthread_setspecific(buffer_key, buffer);
  }
  buffer->data = data;
  buffer->capacity = capacity;
  return true;
}

int32_t cpu_printf_record(const void *record, uint32_t size) {
  cpu_printf_buffer *buffer = &thread_buffer;
  uint32_t stored;
  if (!record || size < cpu_printf_header_size) return -1;
  memcpy(&stored, record, sizeof stored);
  if (stored != size) return -1;
  uint32_t padded = round_up8(size);
  if (padded < size || padded > CPU_PRINTF_BUFFER_SIZE - buffer->used ||
      !buffer_reserve(buffer, buffer->used + padded)) {
    return -1;
  }
  memcpy(buffer->data + buffer->used, record, size);
  memset(buffer->data + buffer->used + size, 0, padded - size);
  buffer->used += padded;
  return 0;
}

/* ---- Reading a record's arguments -----------------------------------------*/

typedef struct arg_cursor {
  const uint8_t *next;
  const uint8_t *end;
} arg_cursor;

typedef struct arg_bytes {
  const uint8_t *data;
  uint32_t size; /* 0 when the record has no more arguments */
} arg_bytes;

static arg_bytes next_arg(arg_cursor *cursor) {
  arg_bytes arg = {NULL, 0};
  if ((size_t)(cursor->end - cursor->next) < cpu_printf_arg_header_size) {
    return arg;
  }
  uint32_t size;
  memcpy(&size, cursor->next, sizeof size);
  const uint8_t *data = cursor->next + cpu_printf_arg_header_size;
  if (size > (size_t)(cursor->end - data)) {
    cursor->next = cursor->end;
    return arg;
  }
  arg.data = data;
  arg.size = size;
  uint32_t step = round_up8(size);
  cursor->next = step <= (size_t)(cursor->end - data) ? data + step
                                                      : cursor->end;
  return arg;
}

/* Element `index` of `width` bytes; bytes past the argument read as 0. */
static uint64_t element_bits(arg_bytes arg, uint32_t index, uint32_t width) {
  uint64_t bits = 0;
  uint64_t offset = (uint64_t)index * width;
  if (offset < arg.size) {
    uint64_t available = arg.size - offset;
    memcpy(&bits, arg.data + offset, available < width ? available : width);
  }
  return bits;
}

static int64_t sign_extend(uint64_t bits, uint32_t width) {
  if (width == 0) return 0;
  if (width >= 8) return (int64_t)bits;
  unsigned shift = 64 - 8 * width;
  return (int64_t)(bits << shift) >> shift;
}

static float half_to_float(uint16_t half) {
  uint32_t sign = (uint32_t)(half >> 15) << 31;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else { /* subnormal half: normalize */
    exponent = 113;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      exponent--;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3ff) << 13);
  }
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

static double float_value(uint64_t bits, uint32_t width) {
  if (width == 8) {
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
  }
  if (width == 2) return half_to_float((uint16_t)bits);
  float value;
  uint32_t low = (uint32_t)bits;
  memcpy(&value, &low, sizeof value);
  return value;
}

/* ---- Formatting -------------------------------------------------------- */

typedef enum length_modifier { length_none, length_hh, length_h, length_hl,
                               length_l } length_modifier;

/* One conversion specification, parsed. */
typedef struct conversion {
  char flags[8];
  int width;     /* -1: none */
  int precision; /* -1: none */
  unsigned vector; /* 0: scalar, else element count */
  length_modifier length;
  char specifier;
} conversion;

static int take_int(arg_cursor *cursor) {
  arg_bytes arg = next_arg(cursor);
  return (int)sign_extend(element_bits(arg, 0, arg.size < 4 ? arg.size : 4),
                          arg.size < 4 ? arg.size : 4);
}

/* Parses the text after '%'; returns the end, or NULL if it is no valid
 * conversion. Widths and precisions given by '*' are taken from the
 * record here, in order, as C does. */
static const char *parse_conversion(const char *p, conversion *c,
                                    arg_cursor *cursor) {
  memset(c, 0, sizeof *c);
  c->width = -1;
  c->precision = -1;
  size_t flags = 0;
  while (*p && strchr("-+ #0", *p)) {
    if (flags + 1 < sizeof c->flags && !strchr(c->flags, *p)) {
      c->flags[flags++] = *p;
    }
    p++;
  }
  if (*p == '*') {
    int width = take_int(cursor);
    if (width < 0) {
      if (flags + 1 < sizeof c->flags && !strchr(c->flags, '-')) {
        c->flags[flags++] = '-';
      }
      width = width == -2147483647 - 1 ? 2147483647 : -width;
    }
    c->width = width;
    p++;
  } else if (*p >= '0' && *p <= '9') {
    long width = strtol(p, (char **)&p, 10);
    c->width = width > 1000000 ? 1000000 : (int)width;
  }
  if (*p == '.') {
    p++;
    if (*p == '*') {
      int precision = take_int(cursor);
      c->precision = precision < 0 ? -1 : precision;
      p++;
    } else if (*p >= '0' && *p <= '9') {
      long precision = strtol(p, (char **)&p, 10);
      c->precision = precision > 1000000 ? 1000000 : (int)precision;
    } else {
      c->precision = 0; /* "." alone */
    }
  }
  if (*p == 'v') {
    if (p[1] < '0' || p[1] > '9') return NULL;
    long count = strtol(p + 1, (char **)&p, 10);
    if (count != 2 && count != 3 && count != 4 && count != 8 && count != 16) {
      return NULL;
    }
    c->vector = (unsigned)count;
  }
  if (p[0] == 'h' && p[1] == 'h') {
    c->length = length_hh;
    p += 2;
  } else if (p[0] == 'h' && p[1] == 'l') {
    c->length = length_hl;
    p += 2;
  } else if (p[0] == 'h') {
    c->length = length_h;
    p++;
  } else if (p[0] == 'l') {
    c->length = length_l;
    p++;
  }
  if (!*p || !strchr("diouxXfFeEgGaAcsp", *p)) return NULL;
  /* hl belongs to vectors only; a vector needs a numeric conversion. */
  if ((c->length == length_hl && !c->vector) ||
      (c->vector && strchr("csp", *p))) {
    return NULL;
  }
  c->specifier = *p;
  return p + 1;
}

/* The host format for one value: flags, width, precision, `length`, the
 * specifier. */
static void host_format(const conversion *c, const char *length, char *out,
                        size_t size) {
  char width[16] = "", precision[16] = "";
  if (c->width >= 0) snprintf(width, sizeof width, "%d", c->width);
  if (c->precision >= 0) snprintf(precision, sizeof precision, ".%d",
                                  c->precision);
  snprintf(out, size, "%%%s%s%s%s%c", c->flags, width, precision, length,
           c->specifier);
}

/* Bytes per element of a vector conversion; without a length modifier
 * 32-bit elements (int, float), as in %v4d. */
static uint32_t element_width(length_modifier length) {
  switch (length) {
    case length_hh: return 1;
    case length_h: return 2;
    case length_l: return 8;
    default: return 4;
  }
}

static void print_integer(FILE *out, const conversion *c, uint64_t bits,
                          uint32_t width) {
  char format[64];
  bool is_signed = c->specifier == 'd' || c->specifier == 'i';
  switch (c->length) {
    case length_hh:
      host_format(c, "hh", format, sizeof format);
      fprintf(out, format, is_signed ? (int)(signed char)bits
                                     : (int)(unsigned char)bits);
      break;
    case length_h:
      host_format(c, "h", format, sizeof format);
      fprintf(out, format, is_signed ? (int)(short)bits
                                     : (int)(unsigned short)bits);
      break;
    case length_l:
      host_format(c, "l", format, sizeof format);
      if (is_signed) {
        fprintf(out, format, (long)sign_extend(bits, width));
      } else {
        fprintf(out, format, (unsigned long)bits);
      }
      break;
    default:
      host_format(c, "", format, sizeof format);
      if (is_signed) {
        fprintf(out, format, (int)sign_extend(bits, width));
      } else {
        fprintf(out, format, (unsigned)bits);
      }
      break;
  }
}

static void print_float(FILE *out, const conversion *c, double value) {
  char format[64];
  host_format(c, "", format, sizeof format);
  fprintf(out, format, value);
}

static void print_conversion(FILE *out, const conversion *c,
                             arg_cursor *cursor) {
  arg_bytes arg = next_arg(cursor);
  bool floating = strchr("fFeEgGaA", c->specifier) != NULL;
  char format[64];
  if (c->vector) {
    uint32_t width = element_width(c->length);
    for (unsigned i = 0; i < c->vector; i++) {
      if (i) fputc(',', out);
      uint64_t bits = element_bits(arg, i, width);
      if (floating) {
        print_float(out, c, float_value(bits, width));
      } else {
        print_integer(out, c, bits, width);
      }
    }
    return;
  }
  /* A scalar arrives promoted: int or long, double; %c an int. */
  uint32_t width = arg.size >= 8 ? 8 : arg.size >= 4 ? 4 : arg.size;
  uint64_t bits = width ? element_bits(arg, 0, width) : 0;
  if (floating) {
    print_float(out, c, width ? float_value(bits, width) : 0.0);
  } else if (c->specifier == 'c') {
    host_format(c, "", format, sizeof format);
    fprintf(out, format, (int)(unsigned char)bits);
  } else if (c->specifier == 's' || c->specifier == 'p') {
    host_format(c, "", format, sizeof format);
    void *pointer = (void *)(uintptr_t)bits;
    if (c->specifier == 's') {
      fprintf(out, format, (const char *)pointer);
    } else {
      fprintf(out, format, pointer);
    }
  } else {
    print_integer(out, c, bits, width ? width : 4);
  }
}

/* Formats one record into `out`. */
static void format_record(FILE *out, const uint8_t *record, uint32_t size) {
  uint64_t address;
  memcpy(&address, record + 8, sizeof address);
  const char *p = (const char *)(uintptr_t)address;
  if (!p) return;
  arg_cursor cursor = {record + cpu_printf_header_size, record + size};
  while (*p) {
    const char *percent = strchr(p, '%');
    if (!percent) {
      fputs(p, out);
      break;
    }
    fwrite(p, 1, (size_t)(percent - p), out);
    if (percent[1] == '%') {
      fputc('%', out);
      p = percent + 2;
      continue;
    }
    conversion c;
    const char *end = parse_conversion(percent + 1, &c, &cursor);
    if (!end) {
      /* Not a conversion: print it as written. */
      fputc('%', out);
      p = percent + 1;
      continue;
    }
    print_conversion(out, &c, &cursor);
    p = end;
  }
}

/* ---- Flushing a work-group's records ----------------------------------- */

typedef struct record_ref {
  uint32_t local_id;
  uint32_t offset; /* in the buffer: also the order of the calls */
} record_ref;

static int record_ref_compare(const void *a, const void *b) {
  const record_ref *x = a, *y = b;
  if (x->local_id != y->local_id) return x->local_id < y->local_id ? -1 : 1;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static pthread_mutex_t stdout_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t record_size(const cpu_printf_buffer *buffer, uint32_t offset) {
  uint32_t size;
  memcpy(&size, buffer->data + offset, sizeof size);
  return size;
}

void cpu_printf_flush(cpu_printf_buffer *buffer) {
  uint32_t count = 0;
  for (uint32_t at = 0; at < buffer->used;
       at += round_up8(record_size(buffer, at))) {
    count++;
  }
  record_ref *refs = malloc(count * sizeof *refs);
  char *text = NULL;
  size_t text_size = 0;
  FILE *out = refs ? open_memstream(&text, &text_size) : NULL;
  if (out) {
    uint32_t i = 0;
    for (uint32_t at = 0; at < buffer->used;
         at += round_up8(record_size(buffer, at))) {
      refs[i].offset = at;
      memcpy(&refs[i].local_id, buffer->data + at + 4, sizeof(uint32_t));
      i++;
    }
    qsort(refs, count, sizeof *refs, record_ref_compare);
    for (i = 0; i < count; i++) {
      format_record(out, buffer->data + refs[i].offset,
                    record_size(buffer, refs[i].offset));
    }
    fclose(out);
  }
  pthread_mutex_lock(&stdout_lock);
  if (text) {
    fwrite(text, 1, text_size, stdout);
  } else {
    /* Out of memory: the records as they came, straight out. */
    for (uint32_t at = 0; at < buffer->used;
         at += round_up8(record_size(buffer, at))) {
      format_record(stdout, buffer->data + at, record_size(buffer, at));
    }
  }
  fflush(stdout);
  pthread_mutex_unlock(&stdout_lock);
  free(text);
  free(refs);
  buffer->used = 0;
}
