/* clmux compiler — code generation: the per-stage record of a build. */
#include "stages.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

#define MAX_STAGES 24

typedef struct {
  const char *name;
  uint64_t begin, end;
  int64_t instructions; /* -1: not counted */
} stage;

typedef struct {
  char kernel[128];
  uint32_t local_size[3];
  uint64_t last;
  unsigned count;
  stage stages[MAX_STAGES];
} stage_record;

static _Thread_local stage_record *current;

uint64_t cc_module_instructions(LLVMModuleRef module) {
  uint64_t count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f;
       f = LLVMGetNextFunction(f)) {
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
         b = LLVMGetNextBasicBlock(b)) {
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
           i = LLVMGetNextInstruction(i)) {
        count++;
      }
    }
  }
  return count;
}

void cc_stages_start(const char *kernel, const uint32_t local_size[3]) {
  free(current);
  current = NULL;
  if (!getenv("CLMUX_DEBUG") && !timeline_on()) return;
  current = calloc(1, sizeof *current);
  if (!current) return;
  snprintf(current->kernel, sizeof current->kernel, "%s", kernel);
  memcpy(current->local_size, local_size, sizeof current->local_size);
  current->last = timeline_now();
}

void cc_stage_done(const char *name, LLVMModuleRef module) {
  stage_record *record = current;
  if (!record) return;
  uint64_t end = timeline_now();
  /* A stage run twice (a kernel with images has two versions) is listed
   * twice. */
  if (record->count < MAX_STAGES) {
    stage *s = &record->stages[record->count++];
    s->name = name;
    s->begin = record->last;
    s->end = end;
    s->instructions = module ? (int64_t)cc_module_instructions(module) : -1;
  }
  record->last = timeline_now(); /* counting is not the next stage's time */
}

int64_t cc_stage_instructions(const char *name) {
  const stage_record *record = current;
  for (unsigned i = record ? record->count : 0; i > 0; i--) {
    if (strcmp(record->stages[i - 1].name, name) == 0) {
      return record->stages[i - 1].instructions;
    }
  }
  return -1;
}

void cc_stages_finish(void) {
  stage_record *record = current;
  if (!record) return;
  current = NULL;
  const uint32_t *size = record->local_size;
  if (getenv("CLMUX_DEBUG")) {
    char line[2048];
    int length = snprintf(line, sizeof line,
                          "clmux: kernel %s: local size %ux%ux%u stages:",
                          record->kernel, size[0], size[1], size[2]);
    for (unsigned i = 0;
         i < record->count && length > 0 && (size_t)length < sizeof line; i++) {
      const stage *s = &record->stages[i];
      length +=
          snprintf(line + length, sizeof line - (size_t)length, "%s %s %.1f ms",
                   i ? "," : "", s->name, (double)(s->end - s->begin) / 1e6);
      if (s->instructions >= 0 && (size_t)length < sizeof line) {
        length += snprintf(line + length, sizeof line - (size_t)length,
                           " (%lld instructions)", (long long)s->instructions);
      }
    }
    fprintf(stderr, "%s\n", line);
  }
  if (timeline_on()) {
    for (unsigned i = 0; i < record->count; i++) {
      const stage *s = &record->stages[i];
      char args[256];
      char kernel[160];
      timeline_escape(kernel, sizeof kernel, record->kernel);
      snprintf(args, sizeof args,
               "\"kernel\":\"%s\",\"local_size\":\"%ux%ux%u\","
               "\"instructions\":%lld",
               kernel, size[0], size[1], size[2], (long long)s->instructions);
      timeline_slice(0, "compile", s->name, s->begin, s->end, args);
    }
  }
  free(record);
}
