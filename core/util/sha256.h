// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

class QCryptographicHash;

namespace structscope {

/// SHA-256, incrementally: the same digest as QCryptographicHash(Sha256), several times faster on processors with the
/// x86 SHA extensions (the content hash of an imported suite covers every byte of it). Elsewhere it is
/// QCryptographicHash.
class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void addData(std::string_view bytes);
    /// The 32-byte digest of everything added. Call it once; the object is spent afterwards.
    QByteArray result();

    /// The digest of `bytes` in one call.
    static QByteArray hash(std::string_view bytes);
    /// Whether this processor takes the fast path (for tests and measurements).
    static bool accelerated();

private:
    void compress(const std::uint8_t* blocks, std::size_t count);

    std::array<std::uint32_t, 8> m_state;
    std::array<std::uint8_t, 64> m_buffer {};
    std::size_t m_buffered = 0;
    std::uint64_t m_length = 0; ///< bytes added
    std::unique_ptr<QCryptographicHash> m_fallback; ///< without the extensions
};

} // namespace structscope
