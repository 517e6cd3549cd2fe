// Overloaded{lambdas...}: one visitor out of several lambdas, for std::visit.
//
// The explicit deduction guide is what C++17 needed and C++20 made implicit (aggregate CTAD);
// it keeps the helper compiling with clang 16 (the fuzz build), which lacks aggregate CTAD.
// Thread-safety and ownership: a plain value type holding the lambdas.
#pragma once

namespace firn {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace firn
