int f(signed char c) {
  int y = c;          /* sext i8 -> i32 */
  return y & 0xff;    /* only the low 8 bits are demanded: bdce makes the sext a zext */
}
