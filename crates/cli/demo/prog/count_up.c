// A counter that must stay below its bound; the loop runs a nondeterministic number of times.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "count_up.c", 4, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 10) return 0;
  int i = 0, s = 0;
  while (i < n) {
    i = i + 1;
    s = s + 2;
  }
  if (s != 2 * 5 && i == 5) {
    reach_error();
  }
  return 0;
}
