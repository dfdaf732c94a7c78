// SPDX-License-Identifier: Apache-2.0
#include "util/prefault.h"

#include <cstdint>
#include <future>
#include <system_error>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace structscope {

void prefaultPages(void* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    constexpr std::size_t kWorthIt = std::size_t(4) << 20;
    if (!data || bytes < kWorthIt)
        return;
    const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
    const auto middle = begin + (end - begin) / 2 / page * page;
    // Failure (EINVAL before Linux 5.14, ENOMEM without memory) leaves the pages to fault in on first write.
    const auto populate = [data](std::uintptr_t from, std::uintptr_t to) {
        if (to > from)
            madvise(static_cast<char*>(data) + (from - reinterpret_cast<std::uintptr_t>(data)), to - from,
                MADV_POPULATE_WRITE);
    };
    std::future<void> other;
    try {
        other = std::async(std::launch::async, populate, middle, end);
    } catch (const std::system_error&) { // no thread to be had: this one does both halves
        populate(middle, end);
    }
    populate(begin, middle);
    if (other.valid())
        other.wait();
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace structscope
