/* clmux-cl-compile: the offline compiler. OpenCL C to a clmux program
 * binary ahead of time, through the same module layer as clBuildProgram,
 * clCompileProgram and clLinkProgram, so its output is exactly what
 * CL_PROGRAM_BINARIES returns and clCreateProgramWithBinary accepts. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "module.h"

static const char usage[] =
    "Usage: clmux-cl-compile [options] -o OUTPUT INPUT... [-- BUILD-OPTIONS]\n"
    "\n"
    "Compiles OpenCL C for clmux ahead of time. OUTPUT is a program binary:\n"
    "the bytes clGetProgramInfo(CL_PROGRAM_BINARIES) gives and\n"
    "clCreateProgramWithBinary accepts.\n"
    "\n"
    "Each INPUT ending in .cl is OpenCL C and is compiled; any other INPUT\n"
    "must be a clmux program binary (a compiled object or a library) and is\n"
    "linked as it is. Without -c or --library the inputs are linked into an\n"
    "executable, as clBuildProgram (one source) or clLinkProgram does.\n"
    "\n"
    "Options:\n"
    "  -o FILE              write the binary to FILE ('-': standard output)\n"
    "  -c                   compile one source into a compiled object\n"
    "                       (clCompileProgram); no linking\n"
    "  --library            link into a library (clLinkProgram with\n"
    "                       -create-library)\n"
    "  -D NAME[=VALUE]      add -D NAME[=VALUE] to the build options\n"
    "  -I DIR               add -I DIR to the build options\n"
    "  --link-options TEXT  options of the link step (-cl-fast-relaxed-math,\n"
    "                       -enable-link-options...)\n"
    "  --header NAME=FILE   FILE's text as the embedded header NAME, for\n"
    "                       #include \"NAME\" (clCompileProgram's headers)\n"
    "  --list-kernels       print the kernels of the result and their\n"
    "                       arguments\n"
    "  -q, --quiet          print the build log only when the build fails\n"
    "  -h, --help           print this help\n"
    "  --                   everything after it is build options, as given\n"
    "                       to clBuildProgram or clCompileProgram\n"
    "\n"
    "A source that #includes files gets -I with its own folder, as a C\n"
    "compiler would search it.\n"
    "\n"
    "Exit status: 0 built, 1 the build failed (its log on standard error),\n"
    "2 bad usage or a file that cannot be read or written.\n";

typedef struct inputs {
  const char *output;
  const char **files;
  size_t file_count;
  cc_header *headers;
  size_t header_count;
  char *build_options; /* malloc'd, space-separated */
  const char *link_options;
  bool compile_only;
  bool library;
  bool list_kernels;
  bool quiet;
} inputs;

static void fail_usage(const char *message, const char *detail) {
  fprintf(stderr, "clmux-cl-compile: %s%s\n", message, detail ? detail : "");
  fprintf(stderr, "Try 'clmux-cl-compile --help'.\n");
  exit(2);
}

static void *checked(void *pointer) {
  if (!pointer) {
    fprintf(stderr, "clmux-cl-compile: out of memory\n");
    exit(2);
  }
  return pointer;
}

/* Appends one option (and its argument, if any) to the build options. */
static void add_build_option(inputs *in, const char *option,
                             const char *argument) {
  char *joined = NULL;
  if (asprintf(&joined, "%s%s%s%s%s", in->build_options,
               *in->build_options ? " " : "", option, argument ? " " : "",
               argument ? argument : "") < 0) {
    checked(NULL);
  }
  free(in->build_options);
  in->build_options = joined;
}

/* The whole file (NUL-terminated; *size without the NUL), or exit 2. */
static char *read_file(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    fprintf(stderr, "clmux-cl-compile: cannot open %s: %s\n", path,
            strerror(errno));
    exit(2);
  }
  size_t capacity = 1 << 16, length = 0;
  char *text = checked(malloc(capacity));
  for (size_t got;
       (got = fread(text + length, 1, capacity - length - 1, file)) > 0;) {
    length += got;
    if (capacity - length - 1 == 0) {
      capacity *= 2;
      text = checked(realloc(text, capacity));
    }
  }
  bool failed = ferror(file);
  fclose(file);
  if (failed) {
    fprintf(stderr, "clmux-cl-compile: cannot read %s\n", path);
    exit(2);
  }
  text[length] = '\0';
  *size = length;
  return text;
}

static void add_header(inputs *in, const char *spec) {
  const char *equals = strchr(spec, '=');
  if (!equals || equals == spec || !equals[1]) {
    fail_usage("--header needs NAME=FILE, not ", spec);
  }
  in->headers = checked(
      realloc(in->headers, (in->header_count + 1) * sizeof *in->headers));
  size_t size = 0;
  cc_header *header = &in->headers[in->header_count++];
  header->name = checked(strndup(spec, (size_t)(equals - spec)));
  header->text = read_file(equals + 1, &size);
}

static void parse_arguments(int argc, char **argv, inputs *in) {
  memset(in, 0, sizeof *in);
  in->build_options = checked(strdup(""));
  in->files = checked(calloc((size_t)argc, sizeof *in->files));
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(arg, "--")) {
      for (i++; i < argc; i++) add_build_option(in, argv[i], NULL);
    } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      fputs(usage, stdout);
      exit(0);
    } else if (!strcmp(arg, "-o") || !strcmp(arg, "--link-options") ||
               !strcmp(arg, "--header") || !strcmp(arg, "-I") ||
               !strcmp(arg, "-D")) {
      if (!next) fail_usage("missing argument after ", arg);
      i++;
      if (!strcmp(arg, "-o")) {
        in->output = next;
      } else if (!strcmp(arg, "--link-options")) {
        in->link_options = next;
      } else if (!strcmp(arg, "--header")) {
        add_header(in, next);
      } else {
        add_build_option(in, arg, next);
      }
    } else if (!strncmp(arg, "-D", 2) || !strncmp(arg, "-I", 2)) {
      add_build_option(in, arg, NULL); /* -DNAME, -Idir */
    } else if (!strcmp(arg, "-c")) {
      in->compile_only = true;
    } else if (!strcmp(arg, "--library")) {
      in->library = true;
    } else if (!strcmp(arg, "--list-kernels")) {
      in->list_kernels = true;
    } else if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet")) {
      in->quiet = true;
    } else if (arg[0] == '-' && arg[1]) {
      fail_usage("unknown option ", arg);
    } else {
      in->files[in->file_count++] = arg;
    }
  }
  if (!in->output) fail_usage("no output file (-o FILE)", NULL);
  if (!in->file_count) fail_usage("no input file", NULL);
  if (in->compile_only && in->library) {
    fail_usage("-c and --library exclude each other", NULL);
  }
  if (in->compile_only && in->file_count != 1) {
    fail_usage("-c compiles exactly one source", NULL);
  }
}

static bool is_source(const char *path) {
  size_t length = strlen(path);
  return length > 3 && !strcmp(path + length - 3, ".cl");
}

/* Prints a build log: always on failure, else unless quiet. */
static void print_log(const char *what, const char *path, const char *log,
                      bool failed, bool quiet) {
  if (failed) {
    fprintf(stderr, "clmux-cl-compile: %s of %s failed\n", what, path);
  }
  if (log && *log && (failed || !quiet)) {
    fputs(log, stderr);
    if (log[strlen(log) - 1] != '\n') fputc('\n', stderr);
  }
}

/* The build options for one source: the common ones, plus -I with the
 * source's folder when it #includes anything. */
static char *source_options(const inputs *in, const char *path,
                            const char *text) {
  char *options = checked(strdup(in->build_options));
  if (!strstr(text, "#include")) return options;
  char *folder = checked(strdup(path));
  char *slash = strrchr(folder, '/');
  if (slash) {
    *slash = '\0';
  } else {
    strcpy(folder, ".");
  }
  if (!strpbrk(folder, " \t\n")) {
    char *joined = NULL;
    if (asprintf(&joined, "%s%s-I %s", options, *options ? " " : "",
                 *folder ? folder : "/") < 0) {
      checked(NULL);
    }
    free(options);
    options = joined;
  }
  free(folder);
  return options;
}

/* One input as a module: compiled from source or reloaded; NULL after
 * printing why. */
static cc_module *load_input(const inputs *in, const char *path) {
  size_t size = 0;
  char *text = read_file(path, &size);
  char *log = NULL;
  cc_module_result result = CC_MODULE_OUT_OF_MEMORY;
  cc_module *module = NULL;
  if (is_source(path)) {
    char *options = source_options(in, path, text);
    module = cc_module_compile(text, size, options, in->headers,
                               in->header_count, &log, &result);
    free(options);
    print_log("compiling", path, log, !module, in->quiet);
  } else {
    module = cc_module_deserialize(text, size, &log, &result);
    if (module && cc_module_get_kind(module) == CC_MODULE_EXECUTABLE) {
      fprintf(stderr,
              "clmux-cl-compile: %s is an executable, which cannot "
              "be linked again\n",
              path);
      cc_module_destroy(module);
      module = NULL;
    } else {
      print_log("reading", path, log, !module, in->quiet);
    }
  }
  free(log);
  free(text);
  return module;
}

/* Links the inputs (and finalizes an executable); NULL after printing
 * why. */
static cc_module *link_inputs(const inputs *in, cc_module **modules) {
  char *options = NULL;
  if (asprintf(&options, "%s%s%s", in->library ? "-create-library" : "",
               in->library && in->link_options ? " " : "",
               in->link_options ? in->link_options : "") < 0) {
    checked(NULL);
  }
  char *log = NULL;
  cc_module_result result = CC_MODULE_OUT_OF_MEMORY;
  cc_module *linked =
      cc_module_link(modules, in->file_count, options, &log, &result);
  free(options);
  print_log("linking", in->output, log, !linked, in->quiet);
  free(log);
  if (linked && !in->library) {
    log = NULL;
    result = cc_module_finalize(linked, &log);
    print_log("finalizing", in->output, log, result != CC_MODULE_SUCCESS,
              in->quiet);
    free(log);
    if (result != CC_MODULE_SUCCESS) {
      cc_module_destroy(linked);
      linked = NULL;
    }
  }
  return linked;
}

static const char *const address_names[] = {"private", "global", "constant",
                                            "local"};

/* To `out`: standard error when the binary goes to standard output. */
static void list_kernels(const cc_module *module, FILE *out) {
  for (size_t k = 0; k < cc_module_kernel_count(module); k++) {
    const cc_module_kernel *kernel = cc_module_kernel_at(module, k);
    fprintf(out, "kernel %s(", kernel->name);
    for (uint32_t a = 0; a < kernel->arg_count; a++) {
      const cc_module_arg *arg = &kernel->args[a];
      fprintf(out, "%s%s %s%s%s", a ? ", " : "", address_names[arg->address],
              arg->type_name ? arg->type_name : "?",
              arg->name && *arg->name ? " " : "", arg->name ? arg->name : "");
    }
    fprintf(out, ")");
    if (kernel->reqd_work_group_size[0]) {
      fprintf(out, " reqd_work_group_size(%u,%u,%u)",
              kernel->reqd_work_group_size[0], kernel->reqd_work_group_size[1],
              kernel->reqd_work_group_size[2]);
    }
    fprintf(out, "\n");
  }
}

/* Writes through a temporary file, so a failed run never leaves half a
 * binary under the output's name. */
static bool write_output(const char *path, const uint8_t *bytes, size_t size) {
  if (!strcmp(path, "-")) {
    return fwrite(bytes, 1, size, stdout) == size && fflush(stdout) == 0;
  }
  char *temp = NULL;
  if (asprintf(&temp, "%s.tmp-%ld", path, (long)getpid()) < 0) checked(NULL);
  FILE *file = fopen(temp, "wb");
  bool written = file && fwrite(bytes, 1, size, file) == size;
  if (file) written = fclose(file) == 0 && written;
  written = written && rename(temp, path) == 0;
  if (!written) {
    fprintf(stderr, "clmux-cl-compile: cannot write %s: %s\n", path,
            strerror(errno));
    unlink(temp);
  }
  free(temp);
  return written;
}

int main(int argc, char **argv) {
  inputs in;
  parse_arguments(argc, argv, &in);
  cc_module **modules = checked(calloc(in.file_count, sizeof *modules));
  bool ok = true;
  for (size_t i = 0; i < in.file_count && ok; i++) {
    modules[i] = load_input(&in, in.files[i]);
    ok = modules[i] != NULL;
  }
  cc_module *result = NULL;
  if (ok && in.compile_only) {
    if (is_source(in.files[0])) {
      result = modules[0];
      modules[0] = NULL;
    } else {
      fprintf(stderr, "clmux-cl-compile: -c needs an OpenCL C source (.cl)\n");
    }
  } else if (ok) {
    result = link_inputs(&in, modules);
  }
  int status = result ? 0 : 1;
  if (result) {
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (cc_module_serialize(result, &bytes, &size) != CC_MODULE_SUCCESS) {
      fprintf(stderr, "clmux-cl-compile: cannot serialize the program\n");
      status = 1;
    } else if (!write_output(in.output, bytes, size)) {
      status = 2;
    }
    free(bytes);
    if (in.list_kernels && status == 0) {
      list_kernels(result, strcmp(in.output, "-") ? stdout : stderr);
    }
    cc_module_destroy(result);
  }
  for (size_t i = 0; i < in.file_count; i++) {
    if (modules[i]) cc_module_destroy(modules[i]);
  }
  free(modules);
  for (size_t i = 0; i < in.header_count; i++) {
    free((char *)in.headers[i].name);
    free((char *)in.headers[i].text);
  }
  free(in.headers);
  free(in.files);
  free(in.build_options);
  return status;
}
