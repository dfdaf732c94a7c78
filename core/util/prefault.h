// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <vector>

namespace structscope {

/// Maps the pages of `bytes` at `data` — memory just allocated and not yet written — ahead of their first write, on
/// two threads. A scored set of a million records is ~600 MB: written page by page, its 150,000 first-write faults
/// (each a trap and a zeroed page) took most of the time of copying one, all on the copying thread. Linux only
/// (MADV_POPULATE_WRITE, 5.14 or later); elsewhere, on an older kernel or for less than a few MB, nothing is done
/// and the pages fault in as they are written.
void prefaultPages(void* data, std::size_t bytes);

/// Reserves room for `count` elements in an empty vector and maps its pages ahead, as above.
template <typename T> void reservePrefaulted(std::vector<T>& vector, std::size_t count)
{
    vector.reserve(count);
    prefaultPages(vector.data(), vector.capacity() * sizeof(T));
}

} // namespace structscope
