// Force-included (-include) into every translation unit of the `fuzz` preset only.
//
// libstdc++ 12 enables <expected> only when __cpp_concepts >= 202002L, because std::expected
// relies on conditionally trivial special members (P0848). Clang 16 implements P0848 but still
// reports __cpp_concepts as 201907L, so without this the project (Result<T> is std::expected)
// does not compile with clang. Clang 14 lacks P0848 entirely and cannot be used at all.
// docs/decisions.md ("Fuzzers build with clang 16") records the choice.
#pragma once

#if defined(__clang__) && __clang_major__ >= 16 && __cpp_concepts < 202002L
#undef __cpp_concepts
#define __cpp_concepts 202002L
#endif
