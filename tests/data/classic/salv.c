long g1(long a) { long t = a + 8; long u = a * 3 - 7; return 0; }
int g2(int a) { int t = a * 5 - 3; int s = a + 100; return 0; }
long g3(int a) { long w = (long)a; return 0; }
int g4(int a, int b) { int t = a - b; int c = a < b; return 0; }
