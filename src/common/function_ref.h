// FunctionRef<R(Args...)>: a non-owning reference to a callable (C++26's std::function_ref,
// reduced to what Firn needs). Two pointers, no allocation, cheap to pass by value.
//
// Ownership: the referenced callable must outlive every call; bind it to a temporary only
// for the duration of the call that receives it (the usual "callback parameter" use).
// Thread-safety: as the referenced callable.
#pragma once

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace firn {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
             std::is_invocable_r_v<R, F&, Args...>)
  FunctionRef(F&& f) noexcept  // NOLINT: implicit, like std::function_ref
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return std::invoke(*static_cast<std::remove_reference_t<F>*>(object),
                             std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace firn
