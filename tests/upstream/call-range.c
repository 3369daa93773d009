extern void use(int);
int bytes_full(unsigned x) {
  int lz = __builtin_clz(x);
  int bytes = lz >> 3;
  int all = bytes == 5;
  use(all);
  return all;
}
