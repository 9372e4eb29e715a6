/* A stand-in for Windows' bcryptprimitives.dll, for Wine 8 (Debian 12), which lacks it: Bun's Windows
   build imports ProcessPrng from it, the random source of Windows 10 and later. Only the smoke test
   under Wine uses it (scripts/smoke-platforms.ts); real Windows has its own. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) { return RtlGenRandom(data, (ULONG)len); }
