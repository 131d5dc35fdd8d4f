//go:build !js

package room

import (
	"net"

	"github.com/pion/ice/v4"
	"github.com/pion/webrtc/v4"
)

// rtcAPI is the client's WebRTC outside a browser (the tests and the
// bench): no mDNS names; for a room on this machine, its loopback
// addresses only.
func rtcAPI(loopback bool) *webrtc.API {
	var se webrtc.SettingEngine
	if loopback {
		se.SetIncludeLoopbackCandidate(true)
		se.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
	}
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	return webrtc.NewAPI(webrtc.WithSettingEngine(se))
}
