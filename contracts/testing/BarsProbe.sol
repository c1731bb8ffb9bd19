// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";

/// @notice TEST ONLY: a bar's leaf as Solidity computes it, checked against a barsRoot with
/// OpenZeppelin's MerkleProof (the definition in lib/chain/bars.ts).
contract BarsProbe {
    function leaf(string calldata serialKey, string calldata refinerKey, uint256 fineWei) public pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(serialKey, refinerKey, fineWei))));
    }

    function verify(
        bytes32[] calldata proof,
        bytes32 root,
        string calldata serialKey,
        string calldata refinerKey,
        uint256 fineWei
    ) external pure returns (bool) {
        return MerkleProof.verifyCalldata(proof, root, leaf(serialKey, refinerKey, fineWei));
    }
}
