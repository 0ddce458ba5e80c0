/* A test program that runs no checks must fail (meson expects it to). */
#include "check.h"

int main(void) { return check_finish(); }
