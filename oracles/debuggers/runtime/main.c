/* The batch program of diopter's debugger oracle (oracles/debuggers).
 *
 * It maps every memory page the batch's cases read at the page's own
 * address and fills it with the case's bytes, then runs diopter_stops
 * (stops.S), which loads each stop's register values and passes the label
 * diopter_stop, where the debugger reads the variables. The tables are
 * data symbols of the batch's object, written by elf.rs. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define PAGE 4096

extern const uint64_t diopter_npages;
/* diopter_npages entries of an 8-byte address and PAGE bytes. */
extern const unsigned char diopter_pages[];
extern const uint64_t diopter_nstops;
/* diopter_nstops entries of 14 general registers and 16 xmm registers. */
extern const unsigned char diopter_table[];
void diopter_stops(const unsigned char *table, uint64_t n);

int main(void) {
    for (uint64_t i = 0; i < diopter_npages; i++) {
        const unsigned char *p = diopter_pages + i * (8 + PAGE);
        uint64_t address;
        memcpy(&address, p, 8);
        void *m = mmap((void *)address, PAGE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (m != (void *)address) {
            fprintf(stderr, "diopter: cannot map the page at 0x%llx\n",
                    (unsigned long long)address);
            return 3;
        }
        memcpy(m, p + 8, PAGE);
    }
    diopter_stops(diopter_table, diopter_nstops);
    return 0;
}
