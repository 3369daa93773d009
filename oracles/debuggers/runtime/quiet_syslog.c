/* Preloaded into LLDB by diopter's debugger oracle (oracles/debuggers/src/link.rs).
 *
 * LLDB 19 copies every diagnostic it reports ("DW_TAG_variable has an
 * invalid location", one per variable whose DWARF it cannot decode) to the
 * system log with openlog(..., LOG_CONS, ...). Without a syslog daemon
 * (no /dev/log, as in most containers) glibc then writes each message to
 * /dev/console, which on a machine with a serial console costs about 10 ms:
 * 430 messages made a 1000-case batch take 4.4 s instead of 0.4 s. The
 * messages carry nothing the oracle reads (each variable's own error comes
 * back through the SB API), so they are dropped here. Nothing else changes.
 */
#include <stdarg.h>

void openlog(const char *ident, int option, int facility) {
    (void)ident;
    (void)option;
    (void)facility;
}

void syslog(int priority, const char *format, ...) {
    (void)priority;
    (void)format;
}

void vsyslog(int priority, const char *format, va_list ap) {
    (void)priority;
    (void)format;
    (void)ap;
}

void __syslog_chk(int priority, int flag, const char *format, ...) {
    (void)priority;
    (void)flag;
    (void)format;
}

void __vsyslog_chk(int priority, int flag, const char *format, va_list ap) {
    (void)priority;
    (void)flag;
    (void)format;
    (void)ap;
}

void closelog(void) {}
