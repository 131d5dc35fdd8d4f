//go:build js

package room

import "github.com/pion/webrtc/v4"

// rtcAPI is the browser's own RTCPeerConnection.
func rtcAPI(bool) *webrtc.API { return webrtc.NewAPI() }
