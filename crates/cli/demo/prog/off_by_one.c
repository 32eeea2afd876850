// The guard admits n = 100: the sum of 0..n-1 in steps of 1 then exceeds the limit.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "off_by_one.c", 4, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int step(int x) { return x + 1; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int i = 0;
  while (i < n) {
    i = step(i);
  }
  if (i >= 100) {
    reach_error();
  }
  return 0;
}
