extern void use(int);
static __attribute__((noinline)) int bump(int x) {
  int a = x + 1;
  use(a);
  return a;
}
int twice(void) { return bump(5) + bump(5); }
