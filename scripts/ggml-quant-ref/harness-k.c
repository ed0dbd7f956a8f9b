#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ggml.h"
#include "ggml-quants.h"
#include "../src/ggml-common.h"
void ggml_abort(const char * file, int line, const char * fmt, ...) { abort(); }
int main(int argc, char **argv) {
  int n = atoi(argv[2]); float *x = malloc(n*4), *y = malloc(n*4); unsigned char buf[1<<16]; size_t bs = 0;
  for (int i = 0; i < n; i++) { unsigned u; scanf("%x", &u); memcpy(&x[i], &u, 4); }
  const char *t = argv[1];
#define CASE(name, blk, q, dq) if (!strcmp(t, name)) { q(x, (void*)buf, n); bs = n/256*sizeof(blk); dq((void*)buf, y, n); }
  CASE("q4_k", block_q4_K, quantize_row_q4_K_ref, dequantize_row_q4_K)
  CASE("q5_k", block_q5_K, quantize_row_q5_K_ref, dequantize_row_q5_K)
  CASE("q6_k", block_q6_K, quantize_row_q6_K_ref, dequantize_row_q6_K)
  for (size_t i = 0; i < bs; i++) printf("%02x", buf[i]); printf("\n");
  for (int i = 0; i < n; i++) { unsigned u; memcpy(&u, &y[i], 4); printf("%08x ", u); } printf("\n");
}
