extern void use(int);
int quot(int x) {
  int quotient = x / 42;
  int in_range = (x < 42) && (x > -42);
  return in_range ? quotient : 24;
}
short guarded(short x) {
  if (x > -43 && x < 43) {
    short q = x / 42;
    use(q);
    return q;
  }
  return 24;
}
int sw(int k, int j) {
  switch (k) {
  case 5: { int m = k * j; use(m); return m; }
  case 9: use(k); return 3;
  default: { int n = k + j; use(n); return n; }
  }
}
