/*
** core/cpu_x86.c - which of our x86 validator paths this CPU and this
** operating system can run.
**
** A CPU flag alone is not enough for AVX2 or AVX-512: the instructions
** also need the operating system to save and restore the wider registers
** on every context switch, or a thread's YMM/ZMM state is silently lost.
** The OS says it does so by setting bits of XCR0, which XGETBV reads (and
** XGETBV itself may only run when CPUID reports OSXSAVE). So each test
** below is "the CPU has it" AND "the OS saves its state".
**
** We read CPUID through <cpuid.h> (gcc and clang both ship it) and XGETBV
** with one line of inline assembly, so this file needs no -m flag and runs
** on any x86-64. The answers are computed on each call; the dispatcher
** asks once, and the tests and benchmark ask a few times.
*/
#include "impl.h"

#include <cpuid.h>
#include <stdatomic.h>
#include <stdint.h>

/* CPUID leaf 1, ECX */
#define CPUID1_ECX_SSSE3    (1u<<9)
#define CPUID1_ECX_SSE41    (1u<<19)
#define CPUID1_ECX_SSE42    (1u<<20)
#define CPUID1_ECX_POPCNT   (1u<<23)   /* counting continuation bytes */
#define CPUID1_ECX_OSXSAVE  (1u<<27)   /* the OS enabled XGETBV/XSAVE */
#define CPUID1_ECX_AVX      (1u<<28)

/* CPUID leaf 7 subleaf 0, EBX and ECX */
#define CPUID7_EBX_AVX2     (1u<<5)
#define CPUID7_EBX_BMI2     (1u<<8)    /* PDEP */
#define CPUID7_EBX_AVX512F  (1u<<16)
#define CPUID7_EBX_AVX512BW (1u<<30)
#define CPUID7_ECX_VBMI     (1u<<1)    /* VPERMB */
#define CPUID7_ECX_VBMI2    (1u<<6)    /* VPCOMPRESSB */

/* XCR0: the register state the OS saves */
#define XCR0_SSE            (1u<<1)    /* XMM registers */
#define XCR0_AVX            (1u<<2)    /* upper halves of YMM */
#define XCR0_OPMASK         (1u<<5)    /* k0-k7 */
#define XCR0_ZMM_HI256      (1u<<6)    /* upper halves of ZMM0-15 */
#define XCR0_HI16_ZMM       (1u<<7)    /* ZMM16-31 */
#define XCR0_YMM_STATE      (XCR0_SSE|XCR0_AVX)
#define XCR0_ZMM_STATE      (XCR0_YMM_STATE|XCR0_OPMASK|XCR0_ZMM_HI256|XCR0_HI16_ZMM)

/*
** ECX of leaf 1, or 0 when the CPU has no such leaf.
*/
static uint32_t cpuid1_ecx(void){
  unsigned a, b, c, d;
  if( !__get_cpuid(1, &a, &b, &c, &d) ) return 0;
  return c;
}

/*
** EBX of leaf 7 subleaf 0, or 0 when the CPU has no such leaf.
*/
static uint32_t cpuid7_ebx(void){
  unsigned a, b, c, d;
  if( !__get_cpuid_count(7, 0, &a, &b, &c, &d) ) return 0;
  return b;
}

/*
** ECX of leaf 7 subleaf 0, or 0 when the CPU has no such leaf.
*/
static uint32_t cpuid7_ecx(void){
  unsigned a, b, c, d;
  if( !__get_cpuid_count(7, 0, &a, &b, &c, &d) ) return 0;
  return c;
}

/*
** The low word of XCR0, or 0 when the OS has not enabled XGETBV (in which
** case executing it would fault, and no wide state is saved anyway).
*/
static uint32_t xcr0(void){
  uint32_t eax, edx;
  if( (cpuid1_ecx() & CPUID1_ECX_OSXSAVE)==0 ) return 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  (void)edx;
  return eax;
}

/* SSSE3 (PSHUFB), SSE4.1/4.2 (PTEST) and POPCNT: the "sse4" path. */
int utf8_cpu_has_sse4(void){
  uint32_t need = CPUID1_ECX_SSSE3|CPUID1_ECX_SSE41|CPUID1_ECX_SSE42|CPUID1_ECX_POPCNT;
  return (cpuid1_ecx() & need)==need;
}

/* AVX2 and POPCNT, with the OS saving YMM state: the "avx2" path. */
int utf8_cpu_has_avx2(void){
  uint32_t need1 = CPUID1_ECX_OSXSAVE|CPUID1_ECX_AVX|CPUID1_ECX_POPCNT;
  if( (cpuid1_ecx() & need1)!=need1 ) return 0;
  if( (xcr0() & XCR0_YMM_STATE)!=XCR0_YMM_STATE ) return 0;
  return (cpuid7_ebx() & CPUID7_EBX_AVX2)!=0;
}

/* AVX-512 F and BW, with the OS saving ZMM and mask state: "avx512". */
int utf8_cpu_has_avx512(void){
  uint32_t need7 = CPUID7_EBX_AVX512F|CPUID7_EBX_AVX512BW;
  if( !utf8_cpu_has_avx2() ) return 0;
  if( (xcr0() & XCR0_ZMM_STATE)!=XCR0_ZMM_STATE ) return 0;
  return (cpuid7_ebx() & need7)==need7;
}

/* "avx512", VBMI/VBMI2 (byte permutes and compresses) and BMI2 (PDEP):
** the repair kernel's window (core/simd_avx512.c).
** Read once: the repair kernel asks at every call, and CPUID is slow. */
int utf8_cpu_has_avx512_vbmi2(void){
  static atomic_int known;    /* 0 not yet read, 1 no, 2 yes */
  int k = atomic_load_explicit(&known, memory_order_relaxed);
  if( k==0 ){
    uint32_t need = CPUID7_ECX_VBMI|CPUID7_ECX_VBMI2;
    k = utf8_cpu_has_avx512() && (cpuid7_ecx() & need)==need
        && (cpuid7_ebx() & CPUID7_EBX_BMI2) ? 2 : 1;
    atomic_store_explicit(&known, k, memory_order_relaxed);  /* the same in any thread */
  }
  return k==2;
}
