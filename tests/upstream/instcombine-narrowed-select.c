unsigned short f(short a, int c) {
  unsigned int conv = a;
  unsigned int sel = c ? 109u : conv;
  return (unsigned short)sel;
}
