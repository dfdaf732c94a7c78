// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "providers/modelspec.h"
#include "providers/providerreply.h"

#include <QByteArray>
#include <QByteArrayView>

#include <memory>

namespace structscope {

/// Decodes one HTTP response body as it arrives, chunk by chunk, for one provider API.
/// Streaming decoders notice the first output token (for time to first token); all of them
/// bound the body size and turn anything unexpected into a ProviderReply with a clear error.
class ResponseDecoder
{
public:
    explicit ResponseDecoder(qint64 maxBodyBytes);
    virtual ~ResponseDecoder();
    ResponseDecoder(const ResponseDecoder&) = delete;
    ResponseDecoder& operator=(const ResponseDecoder&) = delete;

    /// Feeds the next bytes of the body. False once the body exceeds the limit: stop the transfer.
    bool feed(QByteArrayView chunk);
    /// True once the model's first output text arrived.
    bool firstTokenSeen() const { return m_firstToken; }
    qint64 bytesReceived() const { return m_received; }
    /// The answer, once the body is complete (or the transfer was stopped for its size).
    ProviderReply finish(int httpStatus);

protected:
    /// Parses a chunk of a 2xx body (streaming decoders); the base keeps raw bytes meanwhile.
    virtual void consume(QByteArrayView chunk) = 0;
    /// Decodes a complete 2xx body.
    virtual ProviderReply decode() = 0;
    /// Stops keeping raw bytes (a stream proved to be a stream); error bodies keep the first 64 KiB.
    void stopKeepingRaw() { m_keepRaw = false; }
    void markFirstToken() { m_firstToken = true; }
    const QByteArray& raw() const { return m_raw; }

private:
    qint64 m_max;
    qint64 m_received = 0;
    QByteArray m_raw;
    bool m_keepRaw = true;
    bool m_firstToken = false;
    bool m_tooBig = false;
};

/// The decoder for a provider's chat response, streaming or not. Not for sim.
std::unique_ptr<ResponseDecoder> makeResponseDecoder(ProviderKind kind, bool stream, qint64 maxBodyBytes);

} // namespace structscope
