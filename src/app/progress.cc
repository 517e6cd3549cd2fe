#include "app/progress.h"

#include <unistd.h>

#include <cstdio>

namespace firn::app {

Progress::Progress(std::string label, bool enabled) : label_(std::move(label)), enabled_(enabled) {}

Progress::~Progress() { Finish(); }

bool Progress::StderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

void Progress::Update(size_t done, size_t total, std::string_view unit, std::string_view note) {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  done_ = done;
  total_ = total;
  unit_ = unit;
  note_ = note;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100) && done != total) return;
  last_draw_ = now;
  Draw(false);
}

void Progress::Finish() {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  if (finished_) return;
  finished_ = true;
  Draw(true);
}

void Progress::Draw(bool final) {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  constexpr int kWidth = 24;
  const int filled = total_ == 0 ? 0 : static_cast<int>(kWidth * done_ / total_);
  std::string bar(static_cast<size_t>(filled), '#');
  bar.append(static_cast<size_t>(kWidth - filled), '.');
  if (total_ == 0) {  // an unknown total: a count, no bar
    std::fprintf(stderr, "\r\033[K%s %zu %s (%.1f s)%s%s", label_.c_str(), done_, unit_.c_str(),
                 seconds, note_.empty() ? "" : " ", note_.c_str());
  } else {
    std::fprintf(stderr, "\r\033[K%s [%s] %zu/%zu %s (%.1f s)%s%s", label_.c_str(), bar.c_str(),
                 done_, total_, unit_.c_str(), seconds, note_.empty() ? "" : " ", note_.c_str());
  }
  if (final) std::fputc('\n', stderr);
  std::fflush(stderr);
}

}  // namespace firn::app
