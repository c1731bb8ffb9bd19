// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

/// @title Gold Token (GLDT)
/// @notice A gold-backed ERC-20: 1 token (18 decimals) = 1 fine troy ounce held in the vault,
/// as PAXG. Only MINTER_ROLE mints, once per mintdesk order id; only BURNER_ROLE burns, once
/// per redemption id; FREEZER_ROLE applies a compliance freeze under which an account can
/// neither send nor receive; PAUSER_ROLE pauses the token: no transfer, mint or burn.
/// In the issuer's deployment every role is held by the controls contract (GoldMinter.sol)
/// alone, which acts only on signatures of keys that people hold.
contract GoldToken is ERC20, AccessControl, Pausable {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    bytes32 public constant FREEZER_ROLE = keccak256("FREEZER_ROLE");
    bytes32 public constant BURNER_ROLE = keccak256("BURNER_ROLE");
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");

    /// @dev mintdesk order id (uuid, left-padded to 32 bytes) => minted. Never reset.
    mapping(bytes32 orderId => bool) private mintedOrders;
    /// @dev mintdesk redemption id (uuid, left-padded to 32 bytes) => burned. Never reset.
    mapping(bytes32 redemptionId => bool) private burnedRedemptions;
    mapping(address account => bool) private frozen;

    error OrderAlreadyMinted(bytes32 orderId);
    error RedemptionAlreadyBurned(bytes32 redemptionId);
    error ZeroAddress();
    error TokenAddress();
    error AccountFrozen(address account);
    error ZeroAmount();

    event Minted(bytes32 indexed orderId, address indexed to, uint256 amount);
    event Burned(bytes32 indexed redemptionId, address indexed from, uint256 amount);
    event Frozen(address indexed account);
    event Unfrozen(address indexed account);

    constructor(address admin) ERC20("Gold Token", "GLDT") {
        if (admin == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(FREEZER_ROLE, admin);
    }

    /// @notice Mint `amount` (wei, 18 decimals) to `to` for the mintdesk order `orderId`.
    /// Reverts if that order was minted before, so a duplicate send can never mint twice.
    function mint(address to, uint256 amount, bytes32 orderId) external onlyRole(MINTER_ROLE) {
        if (mintedOrders[orderId]) revert OrderAlreadyMinted(orderId);
        if (to == address(0)) revert ZeroAddress();
        if (to == address(this)) revert TokenAddress();
        if (frozen[to]) revert AccountFrozen(to);
        if (amount == 0) revert ZeroAmount();
        mintedOrders[orderId] = true;
        _mint(to, amount);
        emit Minted(orderId, to, amount);
    }

    function isMinted(bytes32 orderId) external view returns (bool) {
        return mintedOrders[orderId];
    }

    /// @notice Burn `amount` (wei) held by `from` for the mintdesk redemption `redemptionId`.
    /// Reverts if that redemption was burned before, so a duplicate send can never burn twice.
    function burn(address from, uint256 amount, bytes32 redemptionId) external onlyRole(BURNER_ROLE) {
        if (burnedRedemptions[redemptionId]) revert RedemptionAlreadyBurned(redemptionId);
        if (from == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        burnedRedemptions[redemptionId] = true;
        _burn(from, amount);
        emit Burned(redemptionId, from, amount);
    }

    function isBurned(bytes32 redemptionId) external view returns (bool) {
        return burnedRedemptions[redemptionId];
    }

    function freeze(address account) external onlyRole(FREEZER_ROLE) {
        if (account == address(0)) revert ZeroAddress();
        frozen[account] = true;
        emit Frozen(account);
    }

    function unfreeze(address account) external onlyRole(FREEZER_ROLE) {
        frozen[account] = false;
        emit Unfrozen(account);
    }

    function isFrozen(address account) external view returns (bool) {
        return frozen[account];
    }

    /// @notice While paused no balance changes: no transfer, mint or burn (emits Paused).
    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    function unpause() external onlyRole(PAUSER_ROLE) {
        _unpause();
    }

    /// @dev A frozen spender cannot move someone else's tokens either.
    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        address spender = _msgSender();
        if (frozen[spender]) revert AccountFrozen(spender);
        return super.transferFrom(from, to, value);
    }

    /// @dev Every balance change (transfer, mint, burn) passes here: nothing moves while the
    /// token is paused, and frozen accounts can neither send nor receive.
    function _update(address from, address to, uint256 value) internal override whenNotPaused {
        if (frozen[from]) revert AccountFrozen(from);
        if (frozen[to]) revert AccountFrozen(to);
        super._update(from, to, value);
    }
}
