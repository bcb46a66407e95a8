/* shim.h: the fuzzer's stand-ins for backend memory and error handling */
#ifndef HROE_FUZZ_SHIM_H
#define HROE_FUZZ_SHIM_H

#include <setjmp.h>

extern sigjmp_buf *shim_jmp;
extern int	shim_errcode;
extern void ShimReset(void);
extern void ShimSetStackBase(void);

#endif
