int f(signed char c) {
  int x = c;
  return (x << 24) >> 24 & 0xff;
}
